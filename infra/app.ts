// infra: the app the CLI builds (infra/bin/app.ts), as a function, so that the tests build the very same app: one
// stage of stacks, checked by cdk-nag's AwsSolutions rules with this design's acknowledgements (infra/nag.ts).
import { Validations, type App, type Environment } from 'aws-cdk-lib';
import { nagChecks } from './nag.js';
import { buildStage, cliEnvironment, type Stage } from './stage.js';

export function buildApp(app: App, options: { stage?: string; env?: Environment } = {}): Stage {
  const stage = buildStage(app, options.stage, options.env ?? cliEnvironment());
  Validations.of(app).addPlugins(nagChecks(app, stage));
  return stage;
}
