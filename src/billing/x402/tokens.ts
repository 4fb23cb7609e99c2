// The stablecoins x402 can be paid in without further configuration: Circle's USDC (FiatToken, EIP-3009)
// per network, with the EIP-712 domain (name, version) that payers sign against. Other EIP-3009 tokens
// work too: set X402_ASSET and the service reads name, version and decimals from the chain at startup.
import type { Address } from './viem.js';

export interface TokenInfo {
  address: Address;
  /** EIP-712 domain name and version of the token contract. */
  name: string;
  version: string;
  decimals: number;
  symbol: string;
}

const usdc = (address: Address, name = 'USD Coin'): TokenInfo => ({ address, name, version: '2', decimals: 6, symbol: 'USDC' });

/** USDC by CAIP-2 network id. */
export const KNOWN_USDC: Readonly<Record<string, TokenInfo>> = {
  'eip155:8453': usdc('0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'), // Base
  'eip155:84532': usdc('0x036CbD53842c5426634e7929541eC2318f3dCF7e', 'USDC'), // Base Sepolia
  'eip155:1': usdc('0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'), // Ethereum
  'eip155:137': usdc('0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359'), // Polygon PoS
  'eip155:42161': usdc('0xaf88d065e77c8cC2239327C5EDb3A432268e5831'), // Arbitrum One
  'eip155:43114': usdc('0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E'), // Avalanche C-Chain
};

/** Multicall3's address, the same on every EVM chain that has it (batches the payer checks into one call). */
export const MULTICALL3_ADDRESS: Address = '0xcA11bde05977b3631167028862bE2a173976CA11';

/** x402 v1 named its networks; v2 uses CAIP-2. */
export const V1_NETWORK_NAMES: Readonly<Record<string, string>> = {
  base: 'eip155:8453',
  'base-sepolia': 'eip155:84532',
  ethereum: 'eip155:1',
  polygon: 'eip155:137',
  arbitrum: 'eip155:42161',
  avalanche: 'eip155:43114',
};

export function chainIdOf(network: string): number {
  const m = /^eip155:(\d+)$/.exec(network);
  if (!m) throw new Error(`not an EVM CAIP-2 network id: ${network}`);
  return Number(m[1]);
}
