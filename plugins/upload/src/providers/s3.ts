/**
 * S3-compatible storage over the official `@aws-sdk/client-s3`. Options in
 * the shape of Strapi's aws-s3 provider:
 *   { baseUrl?, rootPath?, s3Options: { region, endpoint?, forcePathStyle?,
 *     credentials: { accessKeyId, secretAccessKey }, params: { Bucket, ACL? } } }
 * `endpoint` + `forcePathStyle` point it at MinIO, R2, Ceph and others.
 * Bodies stream from the upload's temp file; nothing is buffered whole.
 */
import { ConfigurationError } from '@tessera/errors';
import type { ProviderFile, StorageProvider } from './types';
import { isActiveContent } from '../serve-policy';

interface S3Options {
  baseUrl?: string;
  rootPath?: string;
  s3Options?: {
    region?: string;
    endpoint?: string;
    forcePathStyle?: boolean;
    credentials?: { accessKeyId: string; secretAccessKey: string };
    params?: { Bucket?: string; ACL?: string };
    [key: string]: unknown;
  };
}

export function s3Provider(raw: Record<string, unknown>): StorageProvider {
  const options = raw as S3Options;
  const { params = {}, ...clientOptions } = options.s3Options ?? {};
  const bucket = params.Bucket;
  if (!bucket) throw new ConfigurationError('the aws-s3 upload provider needs providerOptions.s3Options.params.Bucket', 'config/plugins');
  const { S3Client, PutObjectCommand, DeleteObjectCommand } = loadSdk();
  const client = new S3Client({
    // The SDK's default CRC checksums send streams with aws-chunked encoding, which many S3-compatible
    // stores (MinIO releases, Ceph, s3rver) store verbatim or refuse; checksums only where S3 requires them.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...(clientOptions as import('@aws-sdk/client-s3').S3ClientConfig),
  });
  // `(?<!\/)`: a trailing run is matched from its first slash only, so the scan stays linear (no ReDoS).
  const prefix = options.rootPath ? `${options.rootPath.replace(/^\/+|(?<!\/)\/+$/g, '')}/` : '';
  const keyOf = (file: ProviderFile) => `${prefix}${file.hash}${file.ext ?? ''}`;
  const publicUrl = (key: string) => `${baseUrlOf(options, bucket, String(clientOptions.region ?? 'us-east-1'))}/${key.split('/').map(encodeURIComponent).join('/')}`;

  const upload = async (file: ProviderFile) => {
    const key = keyOf(file);
    await client.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: key,
        Body: file.stream ?? file.buffer,
        ContentLength: file.sizeInBytes,
        ContentType: file.mime,
        // Markup is never rendered from the bucket's origin either.
        ContentDisposition: isActiveContent(file.mime) ? 'attachment' : undefined,
        ACL: params.ACL as import('@aws-sdk/client-s3').ObjectCannedACL | undefined,
      }),
    );
    file.url = publicUrl(key);
  };
  return {
    upload,
    uploadStream: upload,
    async delete(file) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: keyOf(file) }));
    },
  };
}

/** `baseUrl` (a CDN) when given; else the endpoint's path-style or virtual-host URL. */
function baseUrlOf(options: S3Options, bucket: string, region: string): string {
  if (options.baseUrl) return options.baseUrl.replace(/(?<!\/)\/+$/, '');
  const endpoint = options.s3Options?.endpoint;
  if (endpoint) {
    const url = new URL(endpoint);
    if (options.s3Options?.forcePathStyle) return `${url.origin}/${bucket}`;
    return `${url.protocol}//${bucket}.${url.host}`;
  }
  return `https://${bucket}.s3.${region}.amazonaws.com`;
}

/**
 * The SDK is an optional peer of this plugin (22 MB of packages that only S3 users need), loaded when an app
 * chooses the provider; without it the boot stops saying what to install.
 */
function loadSdk(): typeof import('@aws-sdk/client-s3') {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require('@aws-sdk/client-s3') as typeof import('@aws-sdk/client-s3');
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND' && String((error as Error).message).includes("'@aws-sdk/client-s3'");
    if (!missing) throw error;
    throw new ConfigurationError('the aws-s3 upload provider needs the @aws-sdk/client-s3 package: npm install @aws-sdk/client-s3', 'config/plugins');
  }
}
