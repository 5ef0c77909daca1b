import { writePortfolioDocuments } from "./portfolioDocuments";

// `npm run portfolio:documents -w @fintech/web`: rewrites the portfolio's resume and paper PDFs
// after the seed module changes (portfolio/documents.test.ts fails until they are rewritten).
for (const line of await writePortfolioDocuments()) console.log(`wrote ${line}`);
