import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/setup/dynamodb-local.ts'],
    setupFiles: ['aws-sdk-client-mock-vitest/extend'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    env: { AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', POWERTOOLS_DEV: 'true', LOG_LEVEL: 'SILENT', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  },
});
