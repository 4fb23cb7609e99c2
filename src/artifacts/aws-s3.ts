// What src uses from the AWS SDK, in one module: `npm pack` replaces its compiled form with one bundled file
// (scripts/bundle-vendor.mjs), so an install carries ~2 MB instead of @aws-sdk and @smithy's 22 MB.
// Development and tests import the real packages.
export {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
export { getSignedUrl } from '@aws-sdk/s3-request-presigner';
