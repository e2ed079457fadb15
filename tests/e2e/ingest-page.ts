/**
 * Page object for the ingest flow: choosing a folder, dropping files, reading the scan state, the
 * results and the Skipped panel, plus a long-task recorder for the main thread.
 */
import { expect, type Page } from '@playwright/test';

export type ScanState = 'idle' | 'scanning' | 'done' | 'error' | 'cancelled';

export class IngestPage {
  constructor(readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.goto('/');
    await expect(this.root).toHaveAttribute('data-scan-state', 'idle');
  }

  get root() {
    return this.page.locator('[data-scan-state]');
  }

  get folderInput() {
    return this.page.getByLabel('Choose folder', { exact: true });
  }

  get filesInput() {
    return this.page.getByLabel('Choose files', { exact: true });
  }

  get dropZone() {
    return this.page.getByRole('region', { name: 'Drop zone' });
  }

  get skipped() {
    return this.page.getByRole('region', { name: /^Skipped/ });
  }

  /** The scan progress line (its status: "Scanned N files…", "Scan cancelled…"). */
  get progressStatus() {
    return this.page.getByRole('region', { name: 'Scan progress' }).getByRole('status');
  }

  /** A number in the results summary, by its term ("Exact-duplicate groups", "Duplicate pairs", ...). */
  summaryValue(term: string) {
    return this.results.getByRole('region', { name: 'Summary' }).locator(`dt:text-is("${term}") + dd`);
  }

  /**
   * The groups list as arrays of paths, reference first (options are labelled "PATH, reference of
   * group N", "PATH, identical to the reference" and "PATH, distance D, similarity S", each maybe
   * followed by ", N more near-duplicates in other groups"), with each member's label.
   */
  async groups(): Promise<Array<{ reference: string; members: Array<{ path: string; label: string }> }>> {
    // The list is virtualized: scroll it from top to bottom, collecting each rendered row once.
    const box = this.results.getByRole('listbox', { name: 'Groups and their documents' });
    const seen = new Map<number, string>();
    for (let top = 0; ; ) {
      const view = await box.evaluate(async (el, scrollTo) => {
        el.scrollTop = scrollTo;
        await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
        const rows = [...el.querySelectorAll('[role=option]')].map((o) => [Number(o.getAttribute('aria-posinset')), o.getAttribute('aria-label') ?? ''] as const);
        return { rows, height: el.scrollHeight, client: el.clientHeight };
      }, top);
      for (const [position, label] of view.rows) seen.set(position, label);
      if (top + view.client >= view.height) break;
      top += view.client;
    }
    const labels = [...seen.entries()].sort((x, y) => x[0] - y[0]).map((entry) => entry[1]);
    const groups: Array<{ reference: string; members: Array<{ path: string; label: string }> }> = [];
    for (const label of labels) {
      const ref = /^(.*), reference of group \d+(, \d+ more near-duplicates? in other groups)?$/.exec(label);
      if (ref) groups.push({ reference: ref[1], members: [] });
      else groups[groups.length - 1].members.push({ path: label.replace(/, (distance|identical|Jaccard) .*$/, ''), label });
    }
    return groups;
  }

  get results() {
    return this.page.getByRole('region', { name: 'Results' });
  }

  async chooseFolder(dir: string): Promise<void> {
    await this.folderInput.setInputFiles(dir);
  }

  async waitForState(state: ScanState, timeout = 60_000): Promise<void> {
    await expect(this.root).toHaveAttribute('data-scan-state', state, { timeout });
  }

  /** Dispatches dragenter, dragover and drop carrying files built in the page. */
  async dropFiles(files: Array<{ name: string; text: string }>): Promise<void> {
    await this.dropZone.evaluate((zone, list) => {
      const data = new DataTransfer();
      for (const f of list) data.items.add(new File([f.text], f.name, { type: 'text/plain' }));
      for (const type of ['dragenter', 'dragover', 'drop']) {
        zone.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }));
      }
    }, files);
  }

  /**
   * Starts recording main-thread long tasks (call before the scan starts), and when the scan's
   * input arrived (the first `change` or `drop` event).
   */
  async recordLongTasks(): Promise<void> {
    await this.page.evaluate(() => {
      const w = window as unknown as { __longTasks: Array<{ start: number; duration: number }>; __inputAt: number };
      w.__longTasks = [];
      w.__inputAt = Infinity;
      const mark = () => (w.__inputAt = Math.min(w.__inputAt, performance.now()));
      window.addEventListener('change', mark, { capture: true });
      window.addEventListener('drop', mark, { capture: true });
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) w.__longTasks.push({ start: entry.startTime, duration: entry.duration });
      }).observe({ type: 'longtask' });
    });
  }

  /**
   * Durations of the long tasks that started once the scan's input had arrived. The task that
   * delivers the input (for `setInputFiles`, the browser building the FileList) is not the app's.
   */
  async longTasksDuringScan(): Promise<number[]> {
    return this.page.evaluate(() => {
      const w = window as unknown as { __longTasks: Array<{ start: number; duration: number }>; __inputAt: number };
      return w.__longTasks.filter((t) => t.start >= w.__inputAt).map((t) => t.duration);
    });
  }
}

/**
 * Clicks the scan's Cancel from inside the page as soon as some of `total` files are done (`total` as
 * shown, "2,000"): a Playwright click waits for a stable button, and on a loaded machine a short scan
 * ended in that wait, leaving nothing to cancel.
 */
export async function cancelOnceFilesDone(page: Page, total: string): Promise<void> {
  await page.waitForFunction(
    (shown) => {
      const panel = document.querySelector('section[aria-label="Scan progress"]');
      const cancel = [...(panel?.querySelectorAll('button') ?? [])].find((b) => b.textContent?.trim() === 'Cancel');
      if (!cancel || !new RegExp(`\\b[1-9][\\d,]* of ${shown} files`).test(panel!.textContent ?? '')) return false;
      cancel.click();
      return true;
    },
    total,
    { polling: 10, timeout: 30_000 },
  );
}
