// Fixture pages for bot-wall detection: one per wall pattern (written here from the public structure of
// such pages: an interstitial with a meta refresh, a noscript and a challenge form; a captcha frame; a
// CDN's "Access Denied" with a reference id; a 429; a 403 with block words; a challenge response header;
// a captcha in another language) and pages that must stay pages (articles that mention these words, a
// site's own 403 and 404, a sign-in and a contact form with a captcha). Served by the integration tests,
// classified directly by the unit tests.

export interface WallFixture {
  name: string;
  status: number;
  headers?: Record<string, string>;
  html: string;
  wall: boolean;
}

const NAV = `<nav>${['Home', 'News', 'Sport', 'Business', 'Culture', 'Science', 'Travel', 'Opinion', 'About', 'Jobs', 'Contact', 'Help']
  .map((t) => `<a href="/${t.toLowerCase()}">${t}</a>`)
  .join(' ')}</nav>`;

const paragraph = (n: number) =>
  `<p>Paragraph ${n}. Researchers who study online services keep returning to the same trade-off between keeping automated ` +
  `abuse out and letting people in without friction. Each new measure is tested against real visitors, and the results ` +
  `are published so that others can compare their own figures with a common baseline.</p>`;

export const WALL_FIXTURES: WallFixture[] = [
  {
    name: 'interstitial JS challenge (503, meta refresh, noscript, challenge form)',
    status: 503,
    html: `<!doctype html><html><head><title>Just a moment...</title><meta http-equiv="refresh" content="35">
<noscript><p>Please enable JavaScript and cookies to continue.</p></noscript>
<script src="/edge/challenge/orchestrate.js"></script></head>
<body><h1>Checking your browser before accessing the site.</h1><p>This process is automatic. Your browser will redirect shortly.</p>
<form id="challenge-form" action="/?__challenge=1" method="POST"><input type="hidden" name="token" value="x"></form></body></html>`,
    wall: true,
  },
  {
    name: 'interstitial answered 200 (title, noscript, meta refresh)',
    status: 200,
    html: `<html><head><title>One moment, please...</title><meta http-equiv="refresh" content="5;url=/">
<noscript>JavaScript is required. Enable JavaScript to continue.</noscript></head>
<body><p>Please wait while your request is being verified...</p></body></html>`,
    wall: true,
  },
  {
    name: 'captcha frame (200)',
    status: 200,
    html: `<html><head><title>Security check</title></head><body><h2>Please complete the security check to continue</h2>
<iframe src="/captcha/frame?k=abc123" width="300" height="80" title="captcha"></iframe>
<p><a href="/privacy">Privacy</a></p></body></html>`,
    wall: true,
  },
  {
    name: 'CDN "Access Denied" with a reference id (403)',
    status: 403,
    html: `<HTML><HEAD><TITLE>Access Denied</TITLE></HEAD><BODY><H1>Access Denied</H1>
You don't have permission to access "http&#58;&#47;&#47;site&#46;example&#47;page" on this server.<P>
Reference&#32;&#35;18&#46;4a3c2f17&#46;1700000000&#46;1f2e3d4c</BODY></HTML>`,
    wall: true,
  },
  {
    name: '429 too many requests',
    status: 429,
    headers: { 'retry-after': '60' },
    html: `<html><head><title>429 Too Many Requests</title></head><body><h1>Too Many Requests</h1><p>Please slow down and try again later.</p></body></html>`,
    wall: true,
  },
  {
    name: '403 with block text',
    status: 403,
    html: `<html><head><title>Attention Required!</title></head><body><h1>Sorry, you have been blocked</h1>
<p>This website is using a security service to protect itself from online attacks. The action you just performed triggered the security solution.</p>
<p>Incident ID: 8f3a9c1d2e4b5a67</p></body></html>`,
    wall: true,
  },
  {
    name: 'challenge response header (403, almost empty body)',
    status: 403,
    headers: { 'x-edge-mitigated': 'challenge' },
    html: `<html><head><title>Please wait</title></head><body><div id="root"></div></body></html>`,
    wall: true,
  },
  {
    name: 'captcha widget in German (200, site key)',
    status: 200,
    html: `<html lang="de"><head><title>Sind Sie ein Roboter?</title></head><body>
<p>Bitte bestätigen Sie, dass Sie ein Mensch sind, und nicht ein Roboter.</p>
<div class="human-check" data-sitekey="0x4AAAAAAA"></div><p>Referenz: 7f1e2d3c4b5a6978</p></body></html>`,
    wall: true,
  },
  {
    name: 'press and hold block page (403)',
    status: 403,
    html: `<html><head><title>Access to this page has been denied</title></head><body>
<p>Press &amp; Hold to confirm you are a human (and not a bot).</p><div id="hold-captcha"></div>
<p>Reference ID 0c5e6a10-ab12-11ee-9f3e-0242ac120002</p></body></html>`,
    wall: true,
  },
];

export const PAGE_FIXTURES: WallFixture[] = [
  {
    name: 'long article about captchas and "access denied"',
    status: 200,
    html: `<html><head><title>Why captchas keep getting harder</title></head><body>${NAV}<article><h1>Why captchas keep getting harder</h1>
<p>When a site asks you to verify you are human, or shows "Access Denied" with a reference number, it is guessing whether you are a robot.
Checking your browser, the page decides; unusual traffic gets a captcha.</p>
${Array.from({ length: 12 }, (_, i) => paragraph(i + 1)).join('\n')}</article></body></html>`,
    wall: false,
  },
  {
    name: 'short news brief mentioning access denied and captchas',
    status: 200,
    html: `<html><head><title>Court rules on access denied to records</title></head><body>${NAV}<article><h1>Court rules on access denied to records</h1>
<p>The court said access denied to the archive must be explained. Critics of the portal's captcha, which asks visitors "are you a robot?", welcomed the ruling.</p></article></body></html>`,
    wall: false,
  },
  {
    name: "a site's own 403 page",
    status: 403,
    html: `<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN"><html><head><title>403 Forbidden</title></head><body>
<h1>Forbidden</h1><p>You don't have permission to access this resource.</p><hr><address>Web Server at 127.0.0.1 Port 80</address></body></html>`,
    wall: false,
  },
  {
    name: "a CMS's access denied page (403, no reference)",
    status: 403,
    html: `<html><head><title>Access denied | Example Parish Council</title></head><body>${NAV}<h1>Access denied</h1>
<p>You are not authorized to access this page. Please sign in with the account your clerk gave you.</p></body></html>`,
    wall: false,
  },
  {
    name: "a site's own 404 page",
    status: 404,
    html: `<html><head><title>Page not found</title></head><body>${NAV}<h1>Page not found</h1><p>The page you asked for does not exist. Try the search.</p></body></html>`,
    wall: false,
  },
  {
    name: 'sign-in page with a captcha',
    status: 200,
    html: `<html><head><title>Sign in</title><script src="/captcha/api.js" async></script></head><body>
<form id="login" action="/session" method="post"><label>Email <input name="email"></label><label>Password <input type="password" name="password"></label>
<div class="captcha-box" data-sitekey="6Lc_test"></div><button>Sign in</button></form>
<p><a href="/forgot">Forgot your password?</a> This form is protected by a captcha.</p></body></html>`,
    wall: false,
  },
  {
    name: 'contact page with a captcha asking "are you a robot?"',
    status: 200,
    html: `<html><head><title>Contact us</title><script src="/captcha/api.js"></script></head><body>${NAV}<h1>Contact us</h1>
<form id="contact" action="/contact" method="post"><textarea name="message"></textarea>
<p>Are you a robot? Please confirm you are human before sending.</p><div class="captcha" data-sitekey="6Lc_test"></div><button>Send</button></form></body></html>`,
    wall: false,
  },
  {
    name: 'maintenance page (503)',
    status: 503,
    html: `<html><head><title>Down for maintenance</title></head><body><h1>We'll be back soon</h1><p>The service is down for scheduled maintenance until 14:00 UTC.</p></body></html>`,
    wall: false,
  },
];
