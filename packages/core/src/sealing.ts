// core: secrets sealed at rest. The webhook signing secret must be readable by the service (every delivery is signed
// with it), so it cannot be stored as a hash; it is stored sealed with AES-256-GCM under a key that is not in the table
// (a Secrets Manager secret in AWS, readable by the two functions that seal and open; a key file or a per-run key
// locally). A copy of the table alone gives no secret. The account id is bound in as associated data, so a sealed
// value moved to another account's item does not open.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

export interface SecretSealer {
  seal(plain: string, context: string): Promise<string>;
  open(sealed: string, context: string): Promise<string>;
}

const VERSION = 'v1';

/** A 256-bit key from any secret text (a generated Secrets Manager string, say): its SHA-256. */
export const keyFromSecretText = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

export class AesGcmSealer implements SecretSealer {
  private key: Promise<Buffer> | undefined;

  /** `loadKey` is asked once, on first use; it must give 32 bytes. */
  constructor(private readonly loadKey: () => Promise<Buffer>) {}

  private async keyBytes(): Promise<Buffer> {
    this.key ??= this.loadKey().then((key) => {
      if (key.length !== 32) throw new Error('the sealing key must be 32 bytes');
      return key;
    });
    return this.key;
  }

  async seal(plain: string, context: string): Promise<string> {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', await this.keyBytes(), iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [VERSION, iv.toString('base64url'), body.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
  }

  async open(sealed: string, context: string): Promise<string> {
    const [version, iv, body, tag] = sealed.split('.');
    if (version !== VERSION || !iv || body === undefined || !tag) throw new Error('not a sealed value');
    const decipher = createDecipheriv('aes-256-gcm', await this.keyBytes(), Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }
}
