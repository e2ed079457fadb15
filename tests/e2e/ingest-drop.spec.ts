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
  const exact = app.results.getByRole('list', { name: 'Exact-duplicate groups' });
  await expect(exact.getByRole('listitem').filter({ hasText: '2 files with identical text' })).toContainText('copy.txt');
  const near = app.results.getByRole('list', { name: 'Near-duplicate groups' });
  await expect(near.getByRole('row').filter({ hasText: 'edited.txt' })).toHaveCount(1);
  await expect(app.skipped.getByRole('listitem').filter({ hasText: 'tiny.txt' })).toContainText('Too short');
});
