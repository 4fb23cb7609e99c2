// Builds x402 for one process from Config: settings (network, token and its EIP-712 domain, payTo),
// chain access or facilitator, the payment gate, wallet sign-in and settlement. x402 is off unless
// X402_PAY_TO is set; then it needs a way to settle, or startup fails with what to set.
import { getAddress, type Address, type Hex } from './viem.js';
import { resolveSecret } from '../../auth/secret.js';
import type { Config } from '../../config.js';
import type { EngineEvents } from '../../engine/events.js';
import type { Logger } from '../../logger.js';
import type { ToolRegistry } from '../../registry/registry.js';
import type { TaskStore } from '../../store/port.js';
import { ChainAccess } from './chain.js';
import { FacilitatorClient } from './facilitator.js';
import { X402Gate } from './gate.js';
import { X402Metrics } from './metrics.js';
import { DEFAULT_TIMING, type X402Settings, type X402Timing } from './settings.js';
import { Settler, type SettlerOptions } from './settlement.js';
import { settlerLeaseName } from './leader-lease.js';
import { PurchaseReconciler, type PurchaseReconcilerOptions } from './purchase-reconciler.js';
import { sqlRunnerOf } from '../../db/sql-runner.js';
import { WalletSignIn } from './siwx.js';
import { KNOWN_USDC, chainIdOf, type TokenInfo } from './tokens.js';
import { loadSecp256k1 } from './secp256k1.js';

export interface X402Payments {
  settings: X402Settings;
  gate: X402Gate;
  signIn: WalletSignIn;
  metrics: X402Metrics;
  settler: Settler;
  /** Resolves key purchases a crash left pending (absent when the store's connection cannot be read). */
  purchases: PurchaseReconciler | undefined;
  /** Chain access (X402_RPC_URL) and facilitator client, when configured. */
  chain: ChainAccess | undefined;
  facilitator: FacilitatorClient | undefined;
  describe(): Record<string, unknown>;
  close(): Promise<void>;
}

export interface X402Options {
  timing?: Partial<X402Timing>;
  settlement?: SettlerOptions;
  /** The key-purchase reconciler's sweep interval and lease timing. */
  purchases?: PurchaseReconcilerOptions;
  /** Receipt polling of the RPC client (default 500 ms). */
  pollingIntervalMs?: number;
  /** How long one fee estimate serves settlement transfers (default 2 s). */
  feeCacheMs?: number;
  /** How long the settler's account nonce is counted locally before the node is asked again (default 2 s). */
  nonceCacheMs?: number;
}

export class X402ConfigError extends Error {
  override name = 'X402ConfigError';
}

/** Starts x402 (verification, sign-in, settlement) for a runtime, or returns undefined when X402_PAY_TO is unset. */
export async function startX402(
  rt: { config: Config; log: Logger; store: TaskStore; engine: { events: EngineEvents; config: Config; registry: ToolRegistry } },
  opts: X402Options = {},
): Promise<X402Payments | undefined> {
  const { config, log } = rt;
  const x = config.x402;
  if (!x.payTo) return undefined;
  const chainId = chainIdOf(x.network);
  const mode: X402Settings['mode'] = x.facilitatorUrl ? 'facilitator' : 'self';
  if (mode === 'self' && (!x.rpcUrl || !x.settlerKey)) {
    throw new X402ConfigError(
      'x402 is on (X402_PAY_TO is set) but payments cannot be settled: set X402_RPC_URL and X402_SETTLER_KEY to settle yourself, or X402_FACILITATOR_URL to use a facilitator.',
    );
  }
  const metrics = new X402Metrics();
  const chain = x.rpcUrl
    ? new ChainAccess({
        rpcUrl: x.rpcUrl,
        chainId,
        network: x.network,
        settlerKey: mode === 'self' ? (x.settlerKey as Hex) : undefined,
        ...(opts.pollingIntervalMs ? { pollingIntervalMs: opts.pollingIntervalMs } : {}),
        ...(opts.feeCacheMs !== undefined ? { feeCacheMs: opts.feeCacheMs } : {}),
        ...(opts.nonceCacheMs !== undefined ? { nonceCacheMs: opts.nonceCacheMs } : {}),
        onSent: (transfers) => metrics.transactionSent(transfers),
      })
    : undefined;
  if (chain) {
    const actual = await chain.chainId().catch((err: unknown) => {
      log.warn('x402: the RPC endpoint did not answer at startup; payments are refused with 503 until it does', { err });
      return chainId;
    });
    if (actual !== chainId) throw new X402ConfigError(`X402_RPC_URL serves chain ${actual}, but X402_NETWORK is ${x.network}.`);
  }
  const token = await resolveToken(x.network, x.asset, chain);
  const settings: X402Settings = {
    payTo: getAddress(x.payTo),
    network: x.network,
    chainId,
    token,
    publicUrl: config.publicUrl,
    maxAttempts: rt.engine.config.engine.maxAttempts,
    timing: { ...DEFAULT_TIMING, ...opts.timing },
    mode,
  };
  // Payment checks and settlement signatures use libsecp256k1 (WebAssembly): compiled now, not at the first payment.
  await loadSecp256k1().catch((err: unknown) =>
    log.warn('x402: libsecp256k1 (tiny-secp256k1) did not load; signatures are checked and made by viem (more CPU)', { err }),
  );
  const facilitator = x.facilitatorUrl ? new FacilitatorClient(x.facilitatorUrl) : undefined;
  const signIn = new WalletSignIn({
    secret: resolveSecret(config),
    publicUrl: config.publicUrl,
    network: x.network,
    store: rt.store,
    ...(chain ? { verifyOnChain: (address: Address, message: string, signature: Hex) => chain.verifyMessageOnChain(address, message, signature) } : {}),
  });
  const maxPrice = Math.max(0, ...rt.engine.registry.names.map((name) => rt.engine.registry.maxUpfrontPriceMicros(name)));
  const pendingOf = {
    sum: (payer: Address) => pendingAmount(rt.store, payer),
    bound: BigInt(PENDING_LOOKBACK) * BigInt(maxPrice) * 10n ** BigInt(token.decimals - 6),
  };
  const gate = new X402Gate({ settings, chain, facilitator, pendingOf }, signIn, metrics);
  const leaseName = settlerLeaseName(settings, chain?.settlerAddress, x.facilitatorUrl);
  const settler = new Settler({ store: rt.store, events: rt.engine.events, log, metrics, settings, chain, facilitator, leaseName }, opts.settlement);
  settler.start();
  const sql = sqlRunnerOf(rt.store);
  const purchases = sql ? new PurchaseReconciler({ store: rt.store, sql, chain, settings, log }, opts.purchases) : undefined;
  purchases?.start();
  log.info('x402 payments on', { network: x.network, asset: token.address, payTo: settings.payTo, mode, settler: chain?.settlerAddress });
  return {
    settings,
    gate,
    signIn,
    metrics,
    settler,
    purchases,
    chain,
    facilitator,
    describe: () => ({ x402: { network: x.network, asset: token.address, pay_to: settings.payTo, settlement: mode } }),
    close: async () => {
      await settler.stop();
      await purchases?.stop();
    },
  };
}

/** How many of a payer's latest tasks are looked at for payments not yet settled. */
const PENDING_LOOKBACK = 200;

/** Sum of the payer's authorizations still waiting for settlement (their recent tasks; an estimate, not a lock). */
async function pendingAmount(store: TaskStore, payer: Address): Promise<bigint> {
  // Only the pending amounts come back, not the tasks: this runs on every x402 creation.
  let sum = 0n;
  for (const amount of await store.pendingPaymentAmounts(payer, PENDING_LOOKBACK)) sum += BigInt(amount);
  return sum;
}

async function resolveToken(network: string, asset: string | undefined, chain: ChainAccess | undefined): Promise<TokenInfo> {
  const known = KNOWN_USDC[network];
  if (!asset || (known && getAddress(asset) === known.address)) {
    if (known) return known;
    throw new X402ConfigError(`No built-in USDC for ${network}: set X402_ASSET to an EIP-3009 token address (and X402_RPC_URL to read its name and version).`);
  }
  if (!chain) throw new X402ConfigError('X402_ASSET is a token without built-in details: set X402_RPC_URL so its name, version and decimals can be read.');
  const info = await chain.tokenInfo(getAddress(asset)).catch((err: unknown) => {
    throw new X402ConfigError(`X402_ASSET ${asset} could not be read as an EIP-3009 token (name, version, decimals): ${(err as Error).message.split('\n')[0]}`);
  });
  if (info.decimals < 6) throw new X402ConfigError(`X402_ASSET has ${info.decimals} decimals; prices need at least 6 (micro-USD).`);
  return info;
}
