// Phone numbers are stored and compared only in E.164 ("+14155550123"), so "(415) 555-0123" and
// "415.555.0123" are the same requester for deduplication. Numbers without a country code are read as US.
import { parsePhoneNumberFromString } from './libphonenumber.js';
import { InvalidInput } from '../errors.js';

export const DEFAULT_PHONE_REGION = 'US';

/** E.164 form of a valid phone number, or undefined. */
export function toE164(phone: string): string | undefined {
  const parsed = parsePhoneNumberFromString(phone.trim(), DEFAULT_PHONE_REGION);
  return parsed?.isValid() ? parsed.number : undefined;
}

/** E.164 form, or a 400 naming `field`. */
export function requireE164(phone: string, field = 'phone'): string {
  const e164 = toE164(phone);
  if (!e164) {
    throw new InvalidInput(
      `${field}: "${phone.slice(0, 40)}" is not a valid phone number (US numbers need 10 digits; others need a +country code).`,
      field,
      'INVALID_PHONE',
    );
  }
  return e164;
}
