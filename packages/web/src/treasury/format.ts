/** The treasury tables: full width, scrolling sideways inside their card on a narrow screen. */
export const tableClass = "w-full min-w-max text-left text-sm text-slate-800 dark:text-slate-100";
export const headCellClass = "px-2 py-2 font-semibold text-slate-700 dark:text-slate-200";
export const cellClass = "px-2 py-2 tabular-nums";

export const pairLabel = (pair: string) => `${pair.slice(0, 3)}/${pair.slice(3)}`;
export const spreadPercent = (spread: string) => `${(Number(spread) * 100).toFixed(2)} %`;
