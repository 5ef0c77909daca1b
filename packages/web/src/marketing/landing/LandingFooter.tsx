import { Link } from "react-router-dom";
import { LogoMark } from "../../components/icons";
import { PRODUCT_NAME } from "../../constants";
import { landingFooterColumns } from "../marketingContent";

/**
 * The landing page's own footer strip (its layout has no site footer). Entries for built screens
 * are links; the others (Careers, Contact, Press) have no page, so they are plain text rather than
 * links or buttons that would do nothing.
 */
export function LandingFooter() {
  return (
    <div
      role="group"
      aria-label="Landing page footer"
      className="border-t border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-950"
    >
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-12 sm:px-6 md:grid-cols-4">
        <div>
          <p className="flex items-center gap-2 text-lg font-bold text-slate-900 dark:text-white">
            <LogoMark />
            {PRODUCT_NAME}
          </p>
          <p className="mt-3 text-sm text-slate-600 dark:text-slate-400">
            Infrastructure for modern financial products.
          </p>
        </div>
        {landingFooterColumns.map((column) => (
          <div key={column.title}>
            <h2 className="text-sm font-semibold text-slate-900 dark:text-white">{column.title}</h2>
            <ul className="mt-3 space-y-2">
              {column.items.map((item) => (
                <li key={item.label} className="text-sm text-slate-600 dark:text-slate-400">
                  {item.to ? (
                    <Link to={item.to} className="hover:text-indigo-700 hover:underline dark:hover:text-indigo-300">
                      {item.label}
                    </Link>
                  ) : (
                    item.label
                  )}
                </li>
              ))}
            </ul>
          </div>
        ))}
      </div>
      <p className="border-t border-slate-200 py-6 text-center text-xs text-slate-600 dark:border-slate-800 dark:text-slate-400">
        © {new Date().getFullYear()} {PRODUCT_NAME}. Figures on this page are marketing claims.
      </p>
    </div>
  );
}
