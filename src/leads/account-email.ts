// The address an account is keyed by. Mail is sent to the address as typed, but quotas, keys and the
// per-address registration limit follow the mailbox: a+1@x.com and a+2@x.com reach the same inbox, and
// so do Gmail addresses that differ only in dots (or googlemail.com), so they are one account, not many.
const DOTS_IGNORED = new Set(['gmail.com', 'googlemail.com']);

export function accountEmail(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  if (at <= 0) return address;
  let local = address.slice(0, at);
  let domain = address.slice(at + 1);
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  if (DOTS_IGNORED.has(domain)) {
    local = local.replaceAll('.', '');
    domain = 'gmail.com';
  }
  return `${local}@${domain}`;
}
