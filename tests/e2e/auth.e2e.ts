import type { Page } from 'playwright-core';
import { test, uniqueEmail } from './harness';

// Sign-in end to end, as a newcomer does it: the real server, a fresh database, the built SPA, Chromium.
const PASSWORD = 'correct-horse-42';
const WRONG_PASSWORD_MESSAGE = 'Invalid email or password. Please check your credentials.';

const emailField = (page: Page) => page.getByLabel('Email', { exact: true });
const passwordField = (page: Page) => page.getByLabel('Password', { exact: true });
const logoutButton = (page: Page) => page.getByRole('button', { name: 'Logout', exact: true });

async function openLoginScreen(page: Page, baseUrl: string) {
  await page.goto(baseUrl);
  await emailField(page).waitFor();
}

/** Switches the form to Create Account mode and submits it. */
async function register(page: Page, email: string, password: string) {
  await page.getByRole('button', { name: 'Create Account', exact: true }).first().click();
  await fill(page, email, password);
  // In register mode the submit button carries the mode's name; the toggle now offers Sign In.
  await page.locator('form').getByRole('button', { name: 'Create Account', exact: true }).click();
}

async function signIn(page: Page, email: string, password: string) {
  await fill(page, email, password);
  await page.locator('form').getByRole('button', { name: 'Sign In', exact: true }).click();
}

async function fill(page: Page, email: string, password: string) {
  await emailField(page).fill(email);
  await passwordField(page).fill(password);
}

/** The main screen: the top bar names the signed-in user and offers Logout. */
async function expectShellFor(page: Page, email: string) {
  await logoutButton(page).waitFor();
  await page.getByText(email, { exact: true }).first().waitFor();
}

/** Waits for exactly this text; on failure says what the page's alerts said instead. */
async function expectExactText(page: Page, text: string) {
  try {
    await page.getByText(text, { exact: true }).waitFor();
  } catch (e) {
    const alerts = await page
      .getByRole('alert')
      .allInnerTexts()
      .catch(() => []);
    throw new Error(
      `expected the text ${JSON.stringify(text)}; alerts on the page: ${JSON.stringify(alerts)}\n${(e as Error).message}`,
    );
  }
}

async function logOut(page: Page) {
  await logoutButton(page).click();
  await emailField(page).waitFor();
  if (await logoutButton(page).isVisible()) throw new Error('Logout left the main screen visible');
}

test('register a new user, see the shell with their email, log out, sign in again, log out', async ({
  page,
  baseUrl,
}) => {
  const email = uniqueEmail();
  await openLoginScreen(page, baseUrl);

  await register(page, email, PASSWORD);
  await expectShellFor(page, email);
  await logOut(page);

  await signIn(page, email, PASSWORD);
  await expectShellFor(page, email);
  await logOut(page);
});

test('a wrong password shows the spec message and stays on the login screen', async ({ page, baseUrl }) => {
  const email = uniqueEmail();
  await openLoginScreen(page, baseUrl);
  await register(page, email, PASSWORD);
  await expectShellFor(page, email);
  await logOut(page);

  await signIn(page, email, 'not-the-password');
  await expectExactText(page, WRONG_PASSWORD_MESSAGE);
  if (await logoutButton(page).isVisible()) throw new Error('a wrong password reached the main screen');
});
