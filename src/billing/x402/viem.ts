// Everything src takes from viem, in one module: `npm pack` replaces its compiled form with one bundled file
// (scripts/bundle-vendor.mjs), so an install carries ~1 MB of viem, ox and @noble instead of ~80 MB of
// packages. Development and tests import the real package through this same module.
export {
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createTransport,
  createWalletClient,
  defineChain,
  getAddress,
  hashTypedData,
  hexToBigInt,
  HttpRequestError,
  isAddressEqual,
  isAddress,
  parseAbi,
  parseEventLogs,
  parseSignature,
  recoverPublicKey,
  RpcRequestError,
  size,
  sliceHex,
  TimeoutError,
  verifyMessage,
  verifyTypedData,
  type Address,
  type Chain,
  type EIP1193RequestFn,
  type Hash,
  type Hex,
  type PublicClient,
  type Transport,
  type TypedDataDomain,
} from 'viem';
export { privateKeyToAccount, publicKeyToAddress } from 'viem/accounts';
// secp256k1 arithmetic (viem's own dependency) for checking a payer's later signatures against its known key.
export { secp256k1 } from '@noble/curves/secp256k1';
export { invert, mod } from '@noble/curves/abstract/modular';
export { createSiweMessage } from 'viem/siwe';
