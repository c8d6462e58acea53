// infra: the CDK app. Stages -> stacks, checked by cdk-nag's AwsSolutions rules (their accepted findings and why:
// infra/nag.ts). `npm run synth` works offline; `npm run deploy` deploys (see the README).
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { acknowledgeNagFindings } from '../nag.js';
import { buildStage } from '../stage.js';

const app = new App();
acknowledgeNagFindings(buildStage(app, process.env.RIVALS_STAGE));
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
app.synth();
