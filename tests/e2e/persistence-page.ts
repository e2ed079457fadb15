/**
 * Page object for the saved corpus: the app root's scan state, choosing folders, the Summary figures
 * that must survive a reload, and the Saved corpus panel (by role and label).
 */
import { expect, type Page } from '@playwright/test';

/**
 * Waits until the writes behind the shown result (queued batches, verified pairs, k, tables) have
 * committed: the Saved corpus panel is aria-busy until then, and a reload before would lose them.
 */
export async function waitForSaved(page: Page): Promise<void> {
  await expect(page.getByRole('region', { name: 'Saved corpus' })).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });
}

/** Scans the sample corpus, waits until it is saved, reloads and waits for it to be restored. */
export async function sampleSavedThenReloaded(page: Page, app: { trySample(): Promise<void>; waitForDone(): Promise<void> }): Promise<void> {
  await app.trySample();
  await waitForSaved(page);
  await page.reload();
  await app.waitForDone();
}

export class PersistencePage {
  constructor(readonly page: Page) {}

  get root() {
    return this.page.locator('[data-scan-state]');
  }

  async waitForState(state: string, timeout = 60_000): Promise<void> {
    await expect(this.root).toHaveAttribute('data-scan-state', state, { timeout });
  }

  async chooseFolder(dir: string): Promise<void> {
    await this.page.getByLabel('Choose folder', { exact: true }).setInputFiles(dir);
  }

  get panel() {
    return this.page.getByRole('region', { name: 'Saved corpus' });
  }

  get savedDocuments() {
    return this.panel.getByLabel('Saved documents');
  }

  get summary() {
    return this.page.getByRole('region', { name: 'Summary' });
  }

  /** The figure under a Summary label, e.g. "Near-duplicate groups". */
  async stat(label: string): Promise<string> {
    const cell = this.summary.locator('dl > div').filter({ has: this.page.getByText(label, { exact: true }) }).getByRole('definition');
    return (await cell.innerText()).trim();
  }

  /** Files scanned, exact groups, near groups and pairs as shown. */
  async figures(): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    for (const label of ['Files scanned', 'Exact-duplicate groups', 'Near-duplicate groups', 'Duplicate pairs']) out[label] = await this.stat(label);
    return out;
  }
}
