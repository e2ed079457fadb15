import { expect, test } from '@playwright/test';

test('the page loads and introduces SimSift', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'SimSift', level: 1 })).toBeVisible();
  await expect(page.locator('[data-scan-state]')).toHaveAttribute('data-scan-state', 'idle');
});
