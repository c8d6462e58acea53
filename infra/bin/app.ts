// infra: the CDK app (infra/app.ts). `npm run synth` works offline; `npm run deploy` deploys (see the README).
import { App } from 'aws-cdk-lib';
import { buildApp } from '../app.js';

const app = new App();
buildApp(app, { ...(process.env.RIVALS_STAGE ? { stage: process.env.RIVALS_STAGE } : {}) });
app.synth();
