/**
 * Page object for the results UI: loading the sample corpus or chosen files, the summary, the
 * duplicate-group list, the open pair (bit diff and texts) and the distance histogram's threshold.
 */
import { expect, type Page } from '@playwright/test';

export class ResultsPage {
  constructor(readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.goto('/');
    await expect(this.root).toHaveAttribute('data-scan-state', 'idle');
  }

  get root() {
    return this.page.locator('[data-scan-state]');
  }

  async waitForDone(): Promise<void> {
    await expect(this.root).toHaveAttribute('data-scan-state', 'done', { timeout: 60_000 });
    await expect(this.summary).toBeVisible();
  }

  async trySample(): Promise<void> {
    await this.page.getByRole('button', { name: 'Try a sample corpus' }).click();
    await this.waitForDone();
  }

  async chooseFiles(paths: string[]): Promise<void> {
    await this.page.getByLabel('Choose files', { exact: true }).setInputFiles(paths);
    await this.waitForDone();
  }

  get summary() {
    return this.page.getByRole('region', { name: 'Summary' });
  }

  /** The figure under a summary label (e.g. "Near-duplicate groups"). */
  stat(label: string) {
    return this.summary.locator('dl > div').filter({ has: this.page.getByText(label, { exact: true }) }).getByRole('definition');
  }

  get groups() {
    return this.page.getByRole('listbox', { name: 'Groups and their documents' });
  }

  /** A document row of the group list, by the start of its accessible name (its path). */
  option(path: string) {
    return this.groups.getByRole('option', { name: new RegExp(`^${escapeRegExp(path)}, `) });
  }

  get groupCount() {
    return this.page.getByRole('region', { name: 'Duplicate groups' }).getByRole('status');
  }

  get bitDiff() {
    return this.page.getByRole('region', { name: 'Bit diff' });
  }

  get pairView() {
    return this.page.getByRole('region', { name: 'Pair view' });
  }

  get histogram() {
    return this.page.getByRole('region', { name: 'Distance histogram' });
  }

  async setThreshold(k: number): Promise<void> {
    await this.histogram.getByRole('spinbutton', { name: 'Threshold k (number)' }).fill(String(k));
  }
}

/** `text` as a literal inside a regular expression. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
