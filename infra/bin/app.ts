// infra: the CDK app. Stages -> stacks. `npm run synth` works offline; `npm run deploy` deploys (see the README).
import { App } from 'aws-cdk-lib';
import { buildStage } from '../stage.js';

const app = new App();
buildStage(app, process.env.RIVALS_STAGE);
app.synth();
