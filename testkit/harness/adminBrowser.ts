import fs from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

const CHROMIUM = '/usr/bin/chromium';

/**
 * Debian's Chromium, headless, driven by playwright-core (installed by .ci/run), with the
 * background traffic a test machine without internet would only wait on turned off.
 */
export async function launchAdminBrowser(
  viewport = { width: 1400, height: 1000 },
): Promise<{ browser: Browser; page: Page }> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return { browser, page: await browser.newPage({ viewport }) };
}

/** Signs in on the admin page with an API key, as a person does, and waits for the signed-in page. */
export async function signInThroughPage(page: Page, baseUrl: string, apiKey: string, userId: string): Promise<void> {
  await page.goto(`${baseUrl}/admin`);
  await page.fill('#api-key', apiKey);
  await page.click('#login-form button');
  await page.locator('#user-id', { hasText: userId }).waitFor();
}
