// test fixture: homepages of fictional English-language companies, each with its category and two leaders of that
// market that must rank among the first five.
import type { HomepageProfile } from '@rivals/core';

const page = (domain: string, title: string, description: string, headings: string[]): HomepageProfile => ({
  domain, url: `https://${domain}/`, title, description, headings, organizationName: null, keywords: [], fetchedAt: '2026-01-01T00:00:00Z',
});

export const ENGLISH_PAGES = [
  [page('ledgerly.io', 'Ledgerly | Accounting software for small businesses', 'Send invoices, reconcile bank feeds, track expenses and run reports.', ['Invoicing and bookkeeping in one place']), 'accounting-software', ['intuit.com', 'xero.com']],
  [page('talentloop.ai', 'TalentLoop, the applicant tracking system for growing teams', 'Post jobs, manage candidates through your hiring pipeline and schedule interviews.', ['Applicant tracking', 'Interview scheduling']), 'applicant-tracking', ['greenhouse.io', 'lever.co']],
  [page('mealmate.co', 'MealMate: chef-designed meal kits delivered weekly', 'Fresh ingredients and easy recipes delivered to your door; skip or cancel anytime.', ['How it works', 'Menus']), 'meal-kits', ['hellofresh.com', 'blueapron.com']],
  [page('shipfast.dev', 'Shipfast: deploy frontend apps in seconds', 'Git-push deploys, preview environments, serverless functions and a global edge network for React apps.', ['Preview every pull request']), 'developer-paas', ['vercel.com', 'netlify.com']],
  [page('petpals.com', 'PetPals: trusted dog walkers and pet sitters near you', 'Book background-checked dog walkers, pet sitters and boarding in your neighborhood.', ['Dog walking', 'Pet sitting']), 'pet-care-marketplaces', ['rover.com']],
] as const;
