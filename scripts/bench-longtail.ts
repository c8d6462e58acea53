// `npm run bench:longtail`: the long-tail proof on a fixture web of 96 fictional small companies in 12 niches and 4
// languages, served to the real crawler by a local server (test/fixtures/longtail), with the discovered layer on
// DynamoDB Local. Prints recall@25 of same-niche peers and of each niche's known leaders, cold, once the niche has
// been seen, and after a bulk job of the whole web; writes bench/results/longtail.json.
import { randomUUID } from 'node:crypto';
import { createDocumentClient, createDynamoClient, DynamoDiscoveredStore } from '@rivals/db';
import { loadKnowledgeBase } from '@rivals/kb';
import { LOCAL_CREDENTIALS, LOCAL_REGION, startDynamoDbLocal } from '../packages/local/src/engines.js';
import { provision } from '../packages/local/src/provision.js';
import { fixtureWeb } from '../test/fixtures/longtail/niches.js';
import { formatLongtail, runLongtail } from '../test/fixtures/longtail/run.js';
import { startFixtureWeb } from '../test/fixtures/longtail/web.js';
import { writeResult } from './bench-results.js';

const companies = fixtureWeb();
const index = loadKnowledgeBase();
const dynamodb = await startDynamoDbLocal();
const web = await startFixtureWeb(companies);
const client = createDynamoClient({ endpoint: dynamodb.endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
try {
  const stores = async () => {
    const { tableName } = await provision({ dynamodb: dynamodb.endpoint, s3: '', sqs: '' }, `lt${randomUUID().slice(0, 8)}`, { region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS }, { tablesOnly: true });
    return new DynamoDiscoveredStore({ client: createDocumentClient(client), tableName });
  };
  const started = performance.now();
  const result = await runLongtail(index, web, companies, stores);
  console.log(`fixture web: ${companies.length} companies, ${new Set(companies.map((c) => c.niche.id)).size} niches; ${((performance.now() - started) / 1000).toFixed(1)} s`);
  console.log(formatLongtail(result));
  writeResult('longtail', result);
} finally {
  client.destroy();
  await web.close();
  await dynamodb.stop();
}
