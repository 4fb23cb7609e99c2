// Mail providers whose servers answer 250 to RCPT TO for every address at SMTP time and bounce later
// (Yahoo, AOL and the Yahoo-hosted AT&T domains; Microsoft's consumer Outlook/Hotmail/Live). A probe there
// proves nothing, so email.verify does not probe and reports UNKNOWN accepts_all_provider instead of a
// false DELIVERABLE. Recognised by the address's domain, or by MX hosts in the providers' own mail
// networks (which also catches custom domains hosted there).

const DOMAINS = new Set([
  // Yahoo
  'yahoo.com',
  'yahoo.co.uk',
  'yahoo.fr',
  'yahoo.de',
  'yahoo.es',
  'yahoo.it',
  'yahoo.ca',
  'yahoo.com.au',
  'yahoo.co.in',
  'yahoo.com.br',
  'yahoo.com.mx',
  'yahoo.com.ar',
  'yahoo.co.nz',
  'yahoo.ie',
  'yahoo.gr',
  'yahoo.com.sg',
  'yahoo.com.ph',
  'yahoo.co.id',
  'ymail.com',
  'rocketmail.com',
  'myyahoo.com',
  // AOL / Verizon (Yahoo-operated)
  'aol.com',
  'aol.co.uk',
  'aol.fr',
  'aol.de',
  'aim.com',
  'verizon.net',
  'love.com',
  'wow.com',
  'games.com',
  // AT&T consumer mail (Yahoo-operated)
  'att.net',
  'sbcglobal.net',
  'bellsouth.net',
  'pacbell.net',
  'swbell.net',
  'prodigy.net',
  'flash.net',
  'ameritech.net',
  'snet.net',
  'nvbell.net',
  'wans.net',
  // Microsoft consumer Outlook
  'hotmail.com',
  'hotmail.co.uk',
  'hotmail.fr',
  'hotmail.de',
  'hotmail.it',
  'hotmail.es',
  'hotmail.nl',
  'hotmail.be',
  'hotmail.ca',
  'hotmail.com.au',
  'hotmail.com.br',
  'outlook.com',
  'outlook.fr',
  'outlook.de',
  'outlook.es',
  'outlook.it',
  'outlook.co.uk',
  'outlook.com.br',
  'live.com',
  'live.co.uk',
  'live.fr',
  'live.de',
  'live.it',
  'live.nl',
  'live.ca',
  'live.com.au',
  'msn.com',
  'passport.com',
  'windowslive.com',
]);

// MX host suffixes of those providers' consumer mail networks. Microsoft 365 business tenants
// (*.mail.protection.outlook.com) are deliberately absent: they do reject unknown recipients.
const MX_SUFFIXES = ['.yahoodns.net', '.olc.protection.outlook.com'];

export interface AcceptAllMatch {
  /** What matched: the address's domain, or one of its MX hosts. */
  by: 'domain' | 'mx';
  value: string;
}

/** Whether the domain (ASCII, lower case) or any of its MX hosts belongs to an accept-all provider. */
export function matchAcceptAllProvider(domain: string, mxHosts: readonly string[] = []): AcceptAllMatch | null {
  const d = domain.toLowerCase();
  if (DOMAINS.has(d)) return { by: 'domain', value: d };
  for (const host of mxHosts) {
    const h = host.toLowerCase().replace(/\.$/, '');
    if (MX_SUFFIXES.some((suffix) => h.endsWith(suffix))) return { by: 'mx', value: h };
  }
  return null;
}
