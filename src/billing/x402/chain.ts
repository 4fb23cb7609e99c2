// Talks to the chain over X402_RPC_URL: the payer checks at acceptance (balance and authorization state
// in one Multicall3 call), settlement (transferWithAuthorization from the settler account; those asked for
// while a send is under way go together as one Multicall3 transaction), and what is needed to reconcile a
// settlement whose answer was lost.
import {
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createWalletClient,
  defineChain,
  encodeFunctionData,
  multicall3Abi,
  parseEventLogs,
  parseSignature,
  size,
  type Address,
  type Chain,
  type Hash,
  type Hex,
  type PrivateKeyAccount,
  type PublicClient,
  type TypedDataDomain,
} from './viem.js';
import { performance } from 'node:perf_hooks';
import { CallGroups } from './call-groups.js';
import { jsonRpcTransport } from './rpc-transport.js';
import { fastPrivateKeyToAccount } from './secp256k1.js';
import { TimedValue } from './timed-value.js';
import { eip3009Abi, transferWithAuthorizationTypes } from './token-abi.js';
import { MULTICALL3_ADDRESS, type TokenInfo } from './tokens.js';
import type { Authorization } from './wire.js';

export interface PayerState {
  balance: bigint;
  /** The authorization's nonce was already used (transferred) or cancelled on chain. */
  nonceUsed: boolean;
}

export interface SettlementReceipt {
  transaction: Hash;
  succeeded: boolean;
}

/** Sends after a nonce conflict (each re-reads the account's pending nonce) before the error is passed on. */
const NONCE_RETRIES = 3;
/**
 * The node's words for a transaction whose account nonce another transaction took first. Not "already
 * known" (viem counts it as nonce too low): that is this very transaction, pending, and a resend with a new
 * nonce would be a second transfer that reverts once the first is mined.
 */
const NONCE_CONFLICT = /nonce too low|replacement transaction underpriced|nonce has already been used/i;

/**
 * Sends are serialised in this process, but another process sending from the same account (one that took
 * the settlement lease over while this one still finished a transfer, or an operator's wallet) can take the
 * nonce this send read. viem reads the pending nonce afresh on each send, so a bounded resend fixes it.
 */
async function sendCountingNonce(send: () => Promise<Hash>): Promise<Hash> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (err) {
      if (attempt > NONCE_RETRIES || !isNonceConflict(err)) throw err;
    }
  }
}

/** Whether the node refused a send because its account nonce was taken (viem keeps the node's words in a cause). */
function isNonceConflict(err: unknown): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (NONCE_CONFLICT.test(e.message) || NONCE_CONFLICT.test((e as { details?: string }).details ?? '')) return true;
  }
  return false;
}

/** The node refused a transaction for its fees (the base fee rose past a cached estimate). */
function isFeeTooLow(err: unknown): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    const text = `${e.message} ${(e as { details?: string }).details ?? ''}`;
    if (/max fee per gas less than block base fee|maxFeePerGas too low|fee cap less than block base fee|underpriced/i.test(text)) return true;
  }
  return false;
}

/** How far back (blocks) to look for a transfer when the search has no starting block, and the span of one log query. */
const RECONCILE_BLOCKS = 10_000n;

/** How long one fee estimate serves transfers (Base makes a block every 2 s; viem's estimate leaves 20% for a rise). */
const FEE_CACHE_MS = 2_000;

/**
 * How long the settler's account nonce, read from the node, is counted on locally (one more per accepted
 * send) before it is read again. A send refused for its nonce, or failing in any way, reads it again at once;
 * the bound caps how long a transaction the node accepted and later dropped could hold later ones behind a gap.
 */
const NONCE_CACHE_MS = 2_000;

/**
 * The most transfers one transaction carries. Sends are one at a time (each takes the next account nonce),
 * so one transfer per send capped settlement at one per two round trips to the node (the estimate and the
 * send): 8 a second against a node 50 ms away (bench/x402-settle), however many tasks complete. The
 * transfers asked for while a send is under way go together in the next (call-groups.ts), which lifts that
 * to 64 a second and costs nothing when they come one at a time. Ten transfers in one transaction take 53,000 gas each against
 * 78,500 alone (one 21,000-gas base and one warm token contract for all; fifty would save only 3,000 more
 * each). Not more: a node runs the batch at once, twice (the estimate, then the block), and on a local
 * Hardhat chain sharing the service's two cores fifty took 80 ms of its one thread, holding paid requests'
 * acceptance reads behind it.
 */
const TRANSFERS_PER_TRANSACTION = 10;

interface Fees {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

interface Transfer {
  token: Address;
  auth: Authorization;
  signature: Hex;
}

export class ChainAccess {
  readonly client: PublicClient;
  private readonly chain: Chain;
  /** The settler account: viem's, with its transactions signed by libsecp256k1 (the same bytes, less CPU). */
  private readonly settler: PrivateKeyAccount | undefined;
  /**
   * One wallet client for every transfer: viem remembers per client that the node lacks eth_fillTransaction
   * (a new client per transfer asked for it every time, one failing RPC per settlement).
   */
  private readonly wallet: ReturnType<typeof createWalletClient> | undefined;
  /** Sends are serialised so each transaction gets the next account nonce from the node. */
  private sending: Promise<unknown> = Promise.resolve();
  /** The last fee estimate (undefined: the chain has no EIP-1559 fees, viem fills them), for feeCacheMs from when it was asked. */
  private readonly fees: TimedValue<Promise<Fees | undefined>>;
  /** The settler's next account nonce as counted here, for nonceCacheMs from when it was last read from the node. */
  private readonly nonce: TimedValue<number>;
  /** Transfers waiting for the send under way, to go together in the next (submitTransfer). */
  private readonly transfers: CallGroups<Transfer, Hash>;
  /** Receipts being waited for: the transfers of one transaction share one wait. */
  private readonly receipts = new Map<Hash, Promise<SettlementReceipt>>();
  private readonly onSent: ((transfers: number) => void) | undefined;

  constructor(opts: {
    rpcUrl: string;
    chainId: number;
    network: string;
    settlerKey?: Hex | undefined;
    pollingIntervalMs?: number;
    feeCacheMs?: number;
    nonceCacheMs?: number;
    /** The most transfers sent as one transaction (1: each alone). */
    transfersPerTransaction?: number;
    /** Called for each transaction sent, with how many transfers it carries (/metrics). */
    onSent?: (transfers: number) => void;
  }) {
    this.chain = defineChain({
      id: opts.chainId,
      name: opts.network,
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [opts.rpcUrl] } },
      contracts: { multicall3: { address: MULTICALL3_ADDRESS } },
    });
    // One transport (one connection pool) for reads and sends.
    const transport = jsonRpcTransport(opts.rpcUrl, { retryCount: 1 });
    this.client = createPublicClient({ chain: this.chain, transport, pollingInterval: opts.pollingIntervalMs ?? 500 });
    this.settler = opts.settlerKey ? fastPrivateKeyToAccount(opts.settlerKey) : undefined;
    // One retry, as for reads: viem's default of three with backoff spent ~1 s on a transfer that reverts
    // (another process used the authorization first) while holding the queue of sends behind it.
    this.wallet = this.settler ? createWalletClient({ account: this.settler, chain: this.chain, transport }) : undefined;
    this.fees = new TimedValue(opts.feeCacheMs ?? FEE_CACHE_MS);
    this.nonce = new TimedValue(opts.nonceCacheMs ?? NONCE_CACHE_MS);
    this.transfers = new CallGroups({ maxSize: opts.transfersPerTransaction ?? TRANSFERS_PER_TRANSACTION, run: (group) => this.sendGroup(group) });
    this.onSent = opts.onSent;
  }

  /**
   * The account nonce for the next transfer: counted here while the last read is younger than nonceCacheMs
   * (an eth_getTransactionCount per settlement otherwise), else the node's pending nonce. Only called by
   * serialised sends, so no two transfers of this process take the same one.
   */
  private async nextNonce(address: Address): Promise<number> {
    const counted = this.nonce.get();
    if (counted !== undefined) return counted;
    const askedAt = performance.now();
    return this.nonce.set(await this.client.getTransactionCount({ address, blockTag: 'pending' }), askedAt);
  }

  /**
   * EIP-1559 fees for a transfer, estimated at most once per feeCacheMs (a block read and
   * eth_maxPriorityFeePerGas per settlement otherwise); undefined lets viem fill them (a legacy chain).
   */
  private feesForTransfer(): Promise<Fees | undefined> {
    return this.fees.getOrSet(() =>
      this.client.estimateFeesPerGas().then(
        (f) =>
          f.maxFeePerGas !== undefined && f.maxPriorityFeePerGas !== undefined
            ? { maxFeePerGas: f.maxFeePerGas, maxPriorityFeePerGas: f.maxPriorityFeePerGas }
            : undefined,
        () => undefined,
      ),
    );
  }

  get settlerAddress(): Address | undefined {
    return this.settler?.address;
  }

  async chainId(): Promise<number> {
    return this.client.getChainId();
  }

  /** name, version and decimals of a token (for assets outside the built-in table). */
  async tokenInfo(address: Address): Promise<TokenInfo> {
    const read = (functionName: 'name' | 'version' | 'decimals' | 'symbol') => this.client.readContract({ address, abi: eip3009Abi, functionName });
    const [name, version, decimals, symbol] = await Promise.all([read('name'), read('version'), read('decimals'), read('symbol').catch(() => 'tokens')]);
    return { address, name: String(name), version: String(version), decimals: Number(decimals), symbol: String(symbol) };
  }

  /** Balance and authorization state in one round trip (Multicall3), or two calls where it is missing. */
  async payerState(token: Address, from: Address, nonce: Hex): Promise<PayerState> {
    const balanceCall = { address: token, abi: eip3009Abi, functionName: 'balanceOf', args: [from] } as const;
    const stateCall = { address: token, abi: eip3009Abi, functionName: 'authorizationState', args: [from, nonce] } as const;
    try {
      const [balance, nonceUsed] = await this.client.multicall({ contracts: [balanceCall, stateCall], allowFailure: false });
      return { balance, nonceUsed };
    } catch (err) {
      if (!(await this.hasMulticall())) {
        const [balance, nonceUsed] = await Promise.all([this.client.readContract(balanceCall), this.client.readContract(stateCall)]);
        return { balance, nonceUsed };
      }
      throw err;
    }
  }

  private multicallDeployed: boolean | undefined;
  private async hasMulticall(): Promise<boolean> {
    this.multicallDeployed ??= ((await this.client.getCode({ address: MULTICALL3_ADDRESS })) ?? '0x') !== '0x';
    return this.multicallDeployed;
  }

  /** Smart-wallet (ERC-1271 / ERC-6492) check of an EIP-712 signature, for signatures ECDSA recovery rejects. */
  async verifyTypedDataOnChain(address: Address, domain: TypedDataDomain, message: Record<string, unknown>, signature: Hex): Promise<boolean> {
    return this.client.verifyTypedData({
      address,
      domain,
      types: transferWithAuthorizationTypes,
      primaryType: 'TransferWithAuthorization',
      message,
      signature,
    });
  }

  async verifyMessageOnChain(address: Address, message: string, signature: Hex): Promise<boolean> {
    return this.client.verifyMessage({ address, message, signature });
  }

  /**
   * Submits transferWithAuthorization from the settler account; throws (without spending gas) when it would
   * revert. Transfers asked for while another send is under way go together as one transaction, all or none
   * (Multicall3's aggregate3 without allowed failures): the receipt's status is each one's, as for one sent alone.
   */
  submitTransfer(token: Address, auth: Authorization, signature: Hex): Promise<Hash> {
    return this.transfers.add({ token, auth, signature });
  }

  /**
   * One transaction for a group of transfers of one token where Multicall3 is deployed. When the node refuses
   * the group before it is sent (its gas estimate reverts: one authorization used, cancelled, or its payer's
   * balance spent), each transfer is sent alone, so only that one fails and with its own reason. Any other
   * failure (the node unreachable, a send whose answer was lost) is each transfer's, as for one sent alone:
   * whether the batch is on chain is not known, and a transfer sent alone after it would be refused as
   * used, which would read as refused a payment the batch may have made.
   */
  private async sendGroup(group: Transfer[]): Promise<PromiseSettledResult<Hash>[]> {
    const alone = () => Promise.allSettled(group.map((t) => this.sendAlone(t)));
    const [first] = group;
    if (!first || group.length === 1 || group.some((t) => t.token !== first.token) || !(await this.hasMulticall().catch(() => false))) return alone();
    try {
      const hash = await this.sendBatch(group);
      return group.map(() => ({ status: 'fulfilled', value: hash }));
    } catch (err) {
      if (revertedBeforeSending(err)) return alone();
      return group.map(() => ({ status: 'rejected', reason: err }));
    }
  }

  private sendAlone({ token, auth, signature }: Transfer): Promise<Hash> {
    const args = transferArgs(auth, signature);
    return this.sendCountingNonce(1, ({ wallet, ...common }) =>
      wallet.writeContract({ ...common, address: token, abi: eip3009Abi, functionName: 'transferWithAuthorization', args }),
    );
  }

  private sendBatch(group: Transfer[]): Promise<Hash> {
    const calls = group.map(({ token, auth, signature }) => ({ target: token, allowFailure: false, callData: transferCallData(auth, signature) }));
    return this.sendCountingNonce(group.length, ({ wallet, ...common }) =>
      wallet.writeContract({ ...common, address: MULTICALL3_ADDRESS, abi: multicall3Abi, functionName: 'aggregate3', args: [calls] }),
    );
  }

  /**
   * One transaction of `transfers` transfers from the settler account, after those before it in this process:
   * the next account nonce (counted here), the fees of the window, and a bounded resend when another sender
   * took the nonce. Counted for /metrics once the node took it.
   */
  private sendCountingNonce(
    transfers: number,
    write: (w: { wallet: NonNullable<ChainAccess['wallet']>; account: PrivateKeyAccount; chain: Chain; nonce: number } & Partial<Fees>) => Promise<Hash>,
  ): Promise<Hash> {
    const { wallet, settler: account } = this;
    if (!wallet || !account) return Promise.reject(new Error('no settler key configured (X402_SETTLER_KEY)'));
    const send = async (): Promise<Hash> => {
      const [fees, nonce] = await Promise.all([this.feesForTransfer(), this.nextNonce(account.address)]);
      try {
        const hash = await write({ wallet, account, chain: this.chain, nonce, ...fees });
        this.nonce.update(nonce + 1);
        this.onSent?.(transfers);
        return hash;
      } catch (err) {
        // Whether the node took the nonce is unknown (a conflict, a lost answer): the next send asks it.
        this.nonce.drop();
        // A send refused for its fees asks for a new estimate.
        if (isFeeTooLow(err)) this.fees.drop();
        throw err;
      }
    };
    const resend = () => sendCountingNonce(send);
    const next = this.sending.then(resend, resend);
    this.sending = next.catch(() => undefined);
    return next;
  }

  waitForReceipt(hash: Hash, timeoutMs = 120_000): Promise<SettlementReceipt> {
    let waiting = this.receipts.get(hash);
    if (!waiting) {
      waiting = this.client
        .waitForTransactionReceipt({ hash, timeout: timeoutMs })
        .then((receipt) => ({ transaction: hash, succeeded: receipt.status === 'success' }))
        .finally(() => this.receipts.delete(hash));
      this.receipts.set(hash, waiting);
    }
    return waiting;
  }

  /** Whether the chain already holds a receipt for `hash` (a submission whose answer was lost). */
  async receiptOf(hash: Hash): Promise<SettlementReceipt | null> {
    try {
      const receipt = await this.client.getTransactionReceipt({ hash });
      return { transaction: hash, succeeded: receipt.status === 'success' };
    } catch {
      return null;
    }
  }

  async blockNumber(): Promise<bigint> {
    return this.client.getBlockNumber({ cacheTime: 0 });
  }

  /**
   * The transaction that used `nonce` of `from` in a transfer to `to`. Searched from `fromBlock` (a block
   * read before the transfer could have been submitted) to the latest, in spans an RPC node accepts; without
   * it, in the last RECONCILE_BLOCKS blocks.
   */
  async findTransfer(token: Address, auth: Authorization, fromBlock?: bigint): Promise<Hash | null> {
    // Never a cached number: a stale "latest" would end the search before the block that holds the transfer.
    const latest = await this.client.getBlockNumber({ cacheTime: 0 });
    const event = eip3009Abi.find((x) => x.type === 'event' && x.name === 'AuthorizationUsed') as Extract<
      (typeof eip3009Abi)[number],
      { name: 'AuthorizationUsed' }
    >;
    let start = fromBlock ?? (latest > RECONCILE_BLOCKS ? latest - RECONCILE_BLOCKS : 0n);
    const logs = [];
    while (start <= latest) {
      const end = start + RECONCILE_BLOCKS - 1n < latest ? start + RECONCILE_BLOCKS - 1n : latest;
      logs.push(...(await this.client.getLogs({ address: token, event, args: { authorizer: auth.from, nonce: auth.nonce }, fromBlock: start, toBlock: end })));
      // An authorization's nonce is used once: the first span that holds its event is the only one.
      if (logs.length > 0) break;
      start = end + 1n;
    }
    for (const log of logs) {
      if (!log.transactionHash) continue;
      const receipt = await this.client.getTransactionReceipt({ hash: log.transactionHash });
      const transfers = parseEventLogs({ abi: eip3009Abi, eventName: 'Transfer', logs: receipt.logs });
      const paid = transfers.some(
        (t) =>
          t.address.toLowerCase() === token.toLowerCase() &&
          t.args.from.toLowerCase() === auth.from.toLowerCase() &&
          t.args.to.toLowerCase() === auth.to.toLowerCase() &&
          t.args.value === BigInt(auth.value),
      );
      if (paid) return log.transactionHash;
    }
    return null;
  }
}

/** The node ran the transaction for its gas estimate and it reverted: nothing was sent. */
function revertedBeforeSending(err: unknown): boolean {
  return err instanceof BaseError && err.walk((e) => e instanceof ContractFunctionRevertedError) !== null;
}

/** transferWithAuthorization's arguments: an EOA's 65-byte signature as (v, r, s), anything else (ERC-1271 wallets) as bytes. */
function transferArgs(auth: Authorization, signature: Hex) {
  const base = [auth.from, auth.to, BigInt(auth.value), BigInt(auth.validAfter), BigInt(auth.validBefore), auth.nonce] as const;
  if (size(signature) !== 65) return [...base, signature] as const;
  const { r, s, v, yParity } = parseSignature(signature);
  return [...base, Number(v ?? BigInt(yParity + 27)), r, s] as const;
}

/** The token call of one transfer, as a batch carries it. */
function transferCallData(auth: Authorization, signature: Hex): Hex {
  return encodeFunctionData({ abi: eip3009Abi, functionName: 'transferWithAuthorization', args: transferArgs(auth, signature) });
}
