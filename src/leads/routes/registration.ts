// POST /v1/register and GET /v1/register/verify: the free-tier sign-up by e-mail (registration.ts).
import { Router, type Response } from 'express';
import { z } from 'zod';
import { requireJson } from '../../web/errors.js';
import { setIpLimitHeaders } from '../quota.js';
import { REGISTER_MESSAGE, type Registration, type RegistrationLimits } from '../registration.js';
import { clientIp, parseBody } from './caller.js';

const registerBody = z.object({ email: z.email().max(254) });

/** RateLimit-* headers of the per-IP registration limiter (on every response until a key is authenticated). */
export async function setRegistrationLimitHeaders(res: Response, registration: Registration, limits: RegistrationLimits, ip: string): Promise<void> {
  const s = await registration.ipState(ip);
  setIpLimitHeaders(res, limits.perIp, s.used, s.resetSeconds, Math.round(limits.windowMs / 1000));
}

export function registrationRoutes(registration: Registration, limits: RegistrationLimits): Router {
  const r = Router();
  r.post('/v1/register', requireJson, async (req, res) => {
    const body = parseBody(registerBody, req.body);
    await registration.register(body.email, clientIp(req));
    await setRegistrationLimitHeaders(res, registration, limits, clientIp(req));
    res.status(202).json({ message: REGISTER_MESSAGE });
  });

  r.get('/v1/register/verify', async (req, res) => {
    const token = typeof req.query.token === 'string' ? req.query.token : '';
    const { email } = await registration.verify(token);
    const message = `Your address ${email} is verified. Your API key has been e-mailed to it; it is not shown here or sent again.`;
    res.format({
      'text/html': () => {
        res.send(`<!doctype html><meta charset="utf-8"><title>Verified</title><p>${message.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`)}</p>`);
      },
      default: () => {
        res.json({ message });
      },
    });
  });
  return r;
}
