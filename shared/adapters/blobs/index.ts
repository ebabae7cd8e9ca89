import type { Config } from '../../config.js';
import type { BlobStore } from './blob-store.js';

export * from './blob-store.js';

export async function createBlobStore(config: Pick<Config, 's3' | 'dataDir'>): Promise<BlobStore> {
  if (config.s3) {
    const { createS3BlobStore } = await import('./s3.js');
    return createS3BlobStore(config.s3);
  }
  const { createFsBlobStore } = await import('./fs.js');
  return createFsBlobStore({ root: `${config.dataDir}/blobs` });
}
