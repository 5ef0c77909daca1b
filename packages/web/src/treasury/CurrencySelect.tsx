import { FX_CURRENCIES } from "@fintech/core/fx/model";
import type { Currency } from "@fintech/core/money/model";
import { inputClass, labelClass } from "../components/styles";

/** A labelled choice among the currencies FX quotes in. */
export function CurrencySelect({
  id,
  label,
  value,
  onChange,
}: {
  id: string;
  label: string;
  value: Currency;
  onChange: (currency: Currency) => void;
}) {
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <select
        id={id}
        className={inputClass}
        value={value}
        onChange={(event) => onChange(event.target.value as Currency)}
      >
        {FX_CURRENCIES.map((currency) => (
          <option key={currency}>{currency}</option>
        ))}
      </select>
    </div>
  );
}
