/** docs/product/portfolio.md#constants: 40 particles on the portfolio page (the marketing heroes draw fewer). */
export const PORTFOLIO_PARTICLE_COUNT = 40;
/** Any fixed seed: the same layout on every visit, so screenshots compare. */
export const PORTFOLIO_PARTICLE_SEED = 19;
