// Everything src takes from viem, in one module: `npm pack` replaces its compiled form with one bundled file
// (scripts/bundle-vendor.mjs), so an install carries ~1 MB of viem, ox and @noble instead of ~80 MB of
// packages. Development and tests import the real package through this same module.
export {
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createWalletClient,
  defineChain,
  getAddress,
  hexToBigInt,
  http,
  isAddress,
  parseAbi,
  parseEventLogs,
  parseSignature,
  size,
  sliceHex,
  verifyMessage,
  verifyTypedData,
  type Address,
  type Chain,
  type Hash,
  type Hex,
  type PublicClient,
  type TypedDataDomain,
} from 'viem';
export { privateKeyToAccount } from 'viem/accounts';
export { createSiweMessage } from 'viem/siwe';
