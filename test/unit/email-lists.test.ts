import { describe, expect, it } from 'vitest';
import { matchAcceptAllProvider } from '../../src/email/accept-all-providers.js';
import { domainAndParents, isDisposableDomain, isFreeEmailDomain, isRoleBasedLocalPart, listSizes } from '../../src/email/lists.js';

describe('maintained lists', () => {
  it('loads lists of a plausible size from the packages', () => {
    const sizes = listSizes();
    expect(sizes.disposable).toBeGreaterThan(10_000);
    expect(sizes.free).toBeGreaterThan(1_000);
    expect(sizes.role).toBeGreaterThan(100);
  });

  it('flags disposable domains, including their subdomains', () => {
    expect(isDisposableDomain('mailinator.com')).toBe(true);
    expect(isDisposableDomain('yopmail.com')).toBe(true);
    expect(isDisposableDomain('inbox.mailinator.com')).toBe(true);
    expect(isDisposableDomain('gmail.com')).toBe(false);
    expect(isDisposableDomain('example.org')).toBe(false);
  });

  it('flags free providers by exact domain, but not the RFC 2606 example domains', () => {
    expect(isFreeEmailDomain('gmail.com')).toBe(true);
    expect(isFreeEmailDomain('GMX.DE')).toBe(true);
    expect(isFreeEmailDomain('sub.gmail.com')).toBe(false);
    expect(isFreeEmailDomain('example.com')).toBe(false);
    expect(isFreeEmailDomain('mycompany.test')).toBe(false);
  });

  it('flags role-based local parts, ignoring case and a +tag', () => {
    for (const local of ['info', 'Support', 'postmaster', 'sales+eu', 'noreply', 'admin']) expect(isRoleBasedLocalPart(local)).toBe(true);
    for (const local of ['jane', 'jane.doe', 'j.smith+news']) expect(isRoleBasedLocalPart(local)).toBe(false);
  });

  it('lists a domain and its parents, most specific first', () => {
    expect(domainAndParents('a.b.example.com')).toEqual(['a.b.example.com', 'b.example.com', 'example.com']);
  });
});

describe('accept-all providers', () => {
  it("matches the providers' own domains", () => {
    for (const d of ['yahoo.com', 'ymail.com', 'aol.com', 'hotmail.com', 'outlook.com', 'live.com', 'msn.com', 'sbcglobal.net']) {
      expect(matchAcceptAllProvider(d)).toEqual({ by: 'domain', value: d });
    }
  });

  it('matches custom domains hosted in their mail networks by MX host', () => {
    expect(matchAcceptAllProvider('family.example', ['mta6.am0.yahoodns.net'])).toEqual({ by: 'mx', value: 'mta6.am0.yahoodns.net' });
    expect(matchAcceptAllProvider('x.example', ['HOTMAIL-COM.olc.protection.outlook.com.'])).toEqual({
      by: 'mx',
      value: 'hotmail-com.olc.protection.outlook.com',
    });
  });

  it('does not match Microsoft 365 business tenants or other domains', () => {
    expect(matchAcceptAllProvider('contoso.example', ['contoso-example.mail.protection.outlook.com'])).toBeNull();
    expect(matchAcceptAllProvider('gmail.com', ['gmail-smtp-in.l.google.com'])).toBeNull();
  });
});
