// aws adapters (secondary): public surface of @rivals/aws, the S3 upload store and the SQS queues of bulk research.
export * from './s3.js';
export * from './sqs.js';
