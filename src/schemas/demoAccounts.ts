import { z } from 'zod';

/** VITE_DEMO_ACCOUNTS (build time): the quick-fill buttons on the Create Account form. */
export const demoAccount = z.object({
  label: z.string().min(1),
  email: z.string().min(1),
  password: z.string().min(1),
});
export type DemoAccount = z.infer<typeof demoAccount>;
export const demoAccountList = z.array(demoAccount);
