import { expect, test } from '@playwright/test';
import { IngestPage } from './ingest-page.ts';

const base = Array.from({ length: 200 }, (_, i) => `word${(i * 37) % 101} term${i % 13}`).join(' ');

test('dropping files onto the drop zone scans them', async ({ page }) => {
  const app = new IngestPage(page);
  await app.open();
  await app.dropFiles([
    { name: 'first.txt', text: base },
    { name: 'copy.txt', text: base },
    { name: 'edited.txt', text: base.replace('word0 term0', 'something else entirely') },
    { name: 'tiny.txt', text: 'hi' },
  ]);
  await app.waitForState('done');
  await expect(app.summaryValue('Exact-duplicate groups')).toHaveText('1');
  await expect(app.summaryValue('Near-duplicate groups')).toHaveText('1');
  const groups = await app.groups();
  const paths = groups.map((g) => [g.reference, ...g.members.map((m) => m.path)].sort().join(' '));
  // The exact pair, and the edited file with the text both copies share (whichever stands for it).
  expect(paths).toContainEqual('copy.txt first.txt');
  expect(paths.some((p) => p === 'edited.txt first.txt' || p === 'copy.txt edited.txt')).toBe(true);
  await expect(app.skipped.getByRole('listitem').filter({ hasText: 'tiny.txt' })).toContainText('Too short');
});
