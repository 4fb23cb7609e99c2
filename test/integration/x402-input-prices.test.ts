// x402 with prices that depend on the input, on a local chain (Hardhat) with the official client:
// site.page asks for the render price with render: true and refuses a payment signed for the plain price;
// site.crawl is paid per request, its pages (limit of them, at the render or plain page price) included,
// and crawls a loopback site with that one payment, settled on chain once the crawl completes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { x402Client, x402HTTPClient, wrapFetchWithPayment } from '@x402/fetch';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import type { PaymentRecord } from '../../src/billing/x402/payment-record.js';
import { tools } from '../../tools/index.js';
import { createCrawlSite } from '../../bench/lib/crawl-site.mjs';
import { startLocalChain, type LocalChain } from '../support/local-chain.js';
import { startLocalServer, type LocalServer } from '../support/local-http.js';
import { startX402Service, type X402TestService } from '../support/x402-service.js';

let chain: LocalChain;
let svc: X402TestService;
let site: LocalServer;
let start: string;

beforeAll(async () => {
  chain = await startLocalChain();
  svc = await startX402Service(chain, { tools, env: { NETWORK_ALLOWLIST: '127.0.0.1/32', WORKER_CONCURRENCY: '16' } });
  let port = 0;
  const pages = createCrawlSite({ hosts: ['127.0.0.1'], pages: 30, port: () => port, slowMs: 5 });
  site = await startLocalServer({ handler: (req, res) => pages.handler(req, res) });
  port = site.port;
  start = `http://127.0.0.1:${port}/`;
}, 120_000);
afterAll(async () => {
  await site?.close();
  await svc?.close();
  await chain?.stop();
});

async function newPayer(usdc: bigint): Promise<{ account: PrivateKeyAccount; client: x402Client; pay: typeof fetch }> {
  const account = privateKeyToAccount(generatePrivateKey());
  await chain.mint(account.address, usdc);
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: account });
  return { account, client, pay: wrapFetchWithPayment(fetch, client) };
}

function create(tool: string, body: unknown, headers: Record<string, string> = {}, f: typeof fetch = fetch) {
  return f(`${svc.url}/v1/tools/${tool}/tasks`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}

async function paymentRequired(tool: string, body: unknown) {
  const res = await create(tool, body);
  expect(res.status).toBe(402);
  return new x402HTTPClient(new x402Client()).getPaymentRequiredResponse((n) => res.headers.get(n), await res.json());
}

async function waitDone(created: { poll_url: string; poll_token: string }) {
  for (let i = 0; i < 60; i++) {
    const res = await fetch(`${svc.url}${created.poll_url}?wait=10`, { headers: { authorization: `Bearer ${created.poll_token}` } });
    const task = (await res.json()) as any;
    if (!['pending', 'running'].includes(task.status)) return task;
  }
  throw new Error('the task never finished');
}

async function finalPayment(taskId: string): Promise<PaymentRecord> {
  for (let i = 0; i < 1200; i++) {
    const p = (await svc.rt.engine.get(taskId))?.payment as unknown as PaymentRecord | undefined;
    if (p && p.status !== 'pending') return p;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`payment of ${taskId} still pending`);
}

describe('site.page over x402', () => {
  it('asks for the render price with render: true and the plain price without', async () => {
    expect((await paymentRequired('site.page', { url: start })).accepts[0]!.amount).toBe('1000');
    expect((await paymentRequired('site.page', { url: start, render: true })).accepts[0]!.amount).toBe('3000');
  });

  it('refuses a payment signed for the plain price when render: true, saying what this input costs', async () => {
    const p = await newPayer(1_000_000n);
    const cheap = await paymentRequired('site.page', { url: start, render: false });
    const payload = await p.client.createPaymentPayload(cheap);
    const header = new x402HTTPClient(p.client).encodePaymentSignatureHeader(payload)['PAYMENT-SIGNATURE']!;
    const res = await create('site.page', { url: start, render: true }, { 'PAYMENT-SIGNATURE': header });
    expect(res.status).toBe(402);
    const body = (await res.json()) as any;
    expect(body.code).toBe('PAYMENT_WRONG_AMOUNT');
    expect(body.error).toContain('site.page costs exactly 3000 (0.003 USDC) for this input (0.003 USD with render: true)');
    // The refusal offers the right requirement, so the client can sign again.
    expect(body.accepts[0].amount).toBe('3000');
  });
});

describe('site.crawl over x402', () => {
  it('prices the crawl with its pages: limit pages at the page price, fewer when max_cost allows fewer', async () => {
    expect((await paymentRequired('site.crawl', { url: start, limit: 5 })).accepts[0]!.amount).toBe(String(2_000 + 5 * 1_000));
    expect((await paymentRequired('site.crawl', { url: start, limit: 5, render: true })).accepts[0]!.amount).toBe(String(2_000 + 5 * 3_000));
    expect((await paymentRequired('site.crawl', { url: start, limit: 50, max_cost: 0.0105 })).accepts[0]!.amount).toBe(String(2_000 + 10 * 1_000));
  });

  it('a bad limit is refused naming the field, before anyone is asked to pay', async () => {
    const res = await create('site.crawl', { url: start, limit: 0 });
    expect(res.status).toBe(400);
    expect(res.headers.get('payment-required')).toBeNull();
    expect(((await res.json()) as any).field).toBe('limit');
  });

  it('crawls with one payment: pages up to limit, free children, settled on chain after the crawl completes', async () => {
    const p = await newPayer(1_000_000n);
    const before = await chain.usdcBalance(p.account.address);
    const res = await create('site.crawl', { url: start, limit: 6, max_depth: 5, sources: 'links', formats: ['links'] }, {}, p.pay);
    expect(res.status).toBe(202);
    const created = (await res.json()) as any;
    expect(created.price_usd).toBe('0.008');
    const done = await waitDone(created);
    expect(done.status).toBe('complete');
    expect(done.result).toMatchObject({ pages: 6, stopped_by: 'limit' });
    expect(done.result.counts.complete).toBeGreaterThan(0);
    // The pages are site.page tasks of the same payer that cost nothing more: the crawl's payment covered them.
    const pages = await svc.rt.store.listBatchItems(`batch_of_${created.task_id}`, 0, 100);
    expect(pages).toHaveLength(6);
    for (const item of pages)
      expect(item.task).toMatchObject({ tool: 'site.page', priceMicros: 0, payment: null, payer: { kind: 'x402', id: p.account.address } });
    const payment = await finalPayment(created.task_id);
    expect(payment).toMatchObject({ status: 'settled', amount: '8000' });
    expect(await chain.usdcBalance(p.account.address)).toBe(before - 8_000n);
  }, 120_000);
});
