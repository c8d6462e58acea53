// s3rver ships no types; the part of its API the local runtime uses.
declare module 's3rver' {
  interface S3rverOptions {
    port?: number;
    address?: string;
    directory: string;
    silent?: boolean;
    resetOnClose?: boolean;
    configureBuckets?: { name: string; configs?: string[] }[];
  }
  export default class S3rver {
    constructor(options: S3rverOptions);
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
    /** Object events (S3 notification shape), emitted for every put, copy, post and delete. */
    on(event: 'event', listener: (event: import('aws-lambda').S3Event) => void): this;
  }
}

declare module 's3rver/lib/models/account.js' {
  /** s3rver's accounts; the dummy account holds the key pairs it accepts. */
  export default class AWSAccount {
    static DUMMY_ACCOUNT: AWSAccount;
    createKeyPair(accessKeyId: string, secretAccessKey: string): void;
  }
}
