// aws adapters (secondary): public surface of @rivals/aws, the S3 upload store and the SQS queues of bulk research, and
// the API Gateway authorizer cache.
export * from './s3.js';
export * from './sqs.js';
export * from './authorizer-cache.js';
