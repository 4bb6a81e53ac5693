// The benchmark's flows written as a person writes them with Playwright:
// locators by role, label and text, auto-waiting actions, and waiting
// assertions (locator.waitFor, page.waitForURL, role filters such as
// {expanded: true}, page.waitForFunction), never a sleep. playwright-core has
// no `expect` (that ships with @playwright/test), so each web-first assertion
// is the library's own waiting call that the matcher would make.
//
//   node e2e/bench/replay/flows.mjs <long|big> <base URL> <folder holding gift-note.txt>
//
// One run is one process: launch Chromium, run the flow in a new context,
// close. The Go runner (main.go) times the whole process.
import path from 'node:path';
import { chromium } from 'playwright-core';

const [flowName, base, files] = process.argv.slice(2);
const password = process.env.TRAILPIN_SECRET_DEMO_PASSWORD;
const executablePath = process.env.CHROME_PATH || '/usr/bin/chromium';

/** @param {import('playwright-core').Locator} l */
const visible = (l) => l.waitFor({ state: 'visible' });
/** @param {import('playwright-core').Page} page @param {string} text */
const text = (page, text) => page.getByText(text, { exact: true });
/** @param {import('playwright-core').Page} page @param {string} p */
const url = (page, p) => page.waitForURL(base + p);

/** Waits for a control's value, as expect(locator).toHaveValue(v) does. */
async function hasValue(page, locator, value) {
  const el = await locator.elementHandle();
  await page.waitForFunction(([el, v]) => el.value === v, [el, value]);
}

/** @param {import('playwright-core').Page} page */
async function fullShoppingJourney(page) {
  await page.goto(base + '/login');
  await page.getByRole('textbox', { name: 'Username' }).fill('ada');
  await page.getByRole('textbox', { name: 'Password' }).fill(password);
  await page.getByRole('checkbox', { name: 'Remember me' }).check();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await url(page, '/products');
  await visible(text(page, '12 products'));
  await page.keyboard.press('/');
  await page.getByRole('searchbox', { name: 'Search products' }).fill('iphone');
  await page.keyboard.press('Enter');
  await url(page, '/products?q=iphone');
  await visible(text(page, '3 results for “iphone”'));
  await page.getByRole('link', { name: 'iPhone 18', exact: true }).click();
  await url(page, '/products/iphone-18');
  await visible(text(page, '$999.00'));
  await page.goBack();
  await url(page, '/products?q=iphone');
  await page.goForward();
  await url(page, '/products/iphone-18');
  await page.getByRole('link', { name: 'iPhone 17', exact: true }).click();
  await url(page, '/products/iphone-17');
  await visible(page.getByRole('heading', { name: 'iPhone 17', exact: true }));
  await visible(text(page, '$799.00'));
  await text(page, 'Specifications').click();
  await visible(text(page, '6.3-inch OLED'));
  await page.getByRole('button', { name: 'Shipping info' }).click();
  await visible(page.getByRole('dialog', { name: 'Shipping and returns' }));
  await page.keyboard.press('Escape');
  await text(page, 'Return anything within 30 days for a full refund.').waitFor({ state: 'hidden' });
  await page.getByRole('spinbutton', { name: 'Quantity', exact: true }).fill('2');
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await visible(text(page, 'Added 2 × iPhone 17 to your cart.'));
  await visible(text(page, 'In your cart: 2'));
  await page.getByRole('searchbox', { name: 'Search products' }).fill('case');
  await page.keyboard.press('Enter');
  await visible(text(page, '1 result for “case”'));
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await visible(text(page, 'Added iPhone 17 Silicone Case to your cart.'));
  await page.getByRole('link', { name: 'Cart 3 items' }).click();
  await url(page, '/cart');
  await hasValue(page, page.getByRole('spinbutton', { name: 'Quantity of iPhone 17', exact: true }), '2');
  await page.getByRole('button', { name: 'Increase quantity of iPhone 17 Silicone Case' }).click();
  await visible(text(page, 'iPhone 17 Silicone Case: quantity 2.'));
  await visible(text(page, '$1,696.00'));
  await page.getByRole('button', { name: 'Remove iPhone 17 Silicone Case' }).click();
  await visible(text(page, 'Removed iPhone 17 Silicone Case from your cart.'));
  await text(page, 'iPhone 17 Silicone Case').waitFor({ state: 'hidden' });
  await page.getByRole('link', { name: 'Review order 2 items' }).click();
  await url(page, '/checkout');
  await page.getByRole('button', { name: 'Order items' }).click();
  await visible(page.getByRole('button', { name: 'Order items', expanded: true }));
  await visible(text(page, 'iPhone 17 × 2 $1,598.00'));
  await page.getByRole('button', { name: 'About discount codes' }).hover();
  await visible(text(page, 'Codes are not case-sensitive. One code per order.'));
  await page.getByRole('textbox', { name: 'Discount code' }).fill('WINTER');
  await page.getByRole('button', { name: 'Apply' }).click();
  await visible(text(page, '“WINTER” is not a valid code.'));
  await page.getByRole('textbox', { name: 'Discount code' }).fill('summer');
  await page.getByRole('button', { name: 'Apply' }).click();
  await visible(text(page, 'SUMMER applied: 10% off'));
  await visible(text(page, '$1,438.20'));
  await page.getByRole('textbox', { name: 'Full name' }).fill('Ada Lovelace');
  await page.getByRole('combobox', { name: 'Country' }).selectOption({ label: 'Canada' });
  await page.getByLabel('Gift note (optional)').setInputFiles(path.join(files, 'gift-note.txt'));
  await visible(text(page, 'Chosen: gift-note.txt'));
  await page.getByRole('checkbox', { name: 'I accept the terms and conditions' }).check();
  page.once('dialog', (d) => d.dismiss());
  await page.getByRole('button', { name: 'Place order' }).click();
  await visible(text(page, 'The order was not placed.'));
  page.once('dialog', (d) => d.accept());
  await page.getByRole('button', { name: 'Place order' }).click();
  await url(page, '/orders/1001');
  await visible(text(page, 'Order TP-1001 is confirmed.'));
  await visible(text(page, '$1,438.20'));
  await visible(text(page, 'gift-note.txt'));
  const [receipt] = await Promise.all([
    page.context().waitForEvent('page'),
    page.getByRole('link', { name: 'Printable receipt' }).click(),
  ]);
  await receipt.waitForURL(base + '/orders/1001/receipt');
  await visible(receipt.getByRole('heading', { name: 'Receipt' }));
  await page.bringToFront();
  await page.getByRole('button', { name: 'Account' }).hover();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await url(page, '/login?signed-out=1');
  await visible(text(page, 'You have signed out.'));
}

/** @param {import('playwright-core').Page} page */
async function bigPage(page) {
  await page.goto(base + '/big?n=10000');
  await visible(text(page, 'Nothing opened yet'));
  await page.getByRole('button', { name: 'Open target' }).click();
  await visible(text(page, 'Target opened'));
  await page.getByRole('button', { name: 'Continue' }).click();
  await visible(text(page, 'Continued after the wait'));
}

const flows = { long: fullShoppingJourney, big: bigPage };
const flow = flows[flowName];
if (!flow || !base || !files) {
  console.error('usage: node flows.mjs <long|big> <base URL> <folder holding gift-note.txt>');
  process.exit(2);
}
const browser = await chromium.launch({ executablePath, headless: true, args: ['--no-sandbox'] });
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US', timezoneId: 'UTC' });
  context.setDefaultTimeout(10_000);
  await flow(await context.newPage());
} finally {
  await browser.close();
}
