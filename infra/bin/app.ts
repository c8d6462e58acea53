// infra: the CDK app. Stages -> stacks. `npx cdk synth` works offline; `npx cdk deploy --all` deploys.
import { App } from 'aws-cdk-lib';
import { buildStage } from '../stage.js';

const app = new App();
const stageName = app.node.tryGetContext('stage') ?? process.env.RIVALS_STAGE ?? 'dev';
buildStage(app, stageName);
app.synth();
