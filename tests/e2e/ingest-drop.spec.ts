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
  // One group holds the two identical copies and the edited file: exact and near duplicates together.
  await expect(app.summaryValue('Exact-duplicate groups')).toHaveText('0');
  await expect(app.summaryValue('Near-duplicate groups')).toHaveText('1');
  const groups = await app.groups();
  expect(groups).toHaveLength(1);
  const [group] = groups;
  expect([group.reference, ...group.members.map((m) => m.path)].sort()).toEqual(['copy.txt', 'edited.txt', 'first.txt']);
  // The reference is one of the copies (the text most documents are near); its twin is marked identical.
  expect(['copy.txt', 'first.txt']).toContain(group.reference);
  const twin = group.members.find((m) => m.path !== 'edited.txt')!;
  expect(twin.label).toMatch(/, identical to the reference$/);
  expect(group.members.find((m) => m.path === 'edited.txt')!.label).toMatch(/, distance \d+, similarity /);
  // Three pairs: the copies, and the edited file with each of them.
  await expect(app.summaryValue('Duplicate pairs')).toContainText('3');
  await expect(app.skipped.getByRole('listitem').filter({ hasText: 'tiny.txt' })).toContainText('Too short');
});
