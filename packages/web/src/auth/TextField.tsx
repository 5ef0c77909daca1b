import type { InputHTMLAttributes } from "react";
import { inputClass, labelClass } from "../components/styles";

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "onChange" | "value"> {
  id: string;
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  optional?: boolean;
}

/**
 * A labelled input. Required-ness is announced with aria-required, not `required`, so the app (not
 * the browser) reports empty fields with the messages of docs/product/session.md#messages.
 */
export function TextField({ id, label, value, onValueChange, optional = false, ...input }: TextFieldProps) {
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
        {optional && <span className="ml-1 font-normal text-slate-500 dark:text-slate-400">(optional)</span>}
      </label>
      <input
        id={id}
        name={id}
        value={value}
        onChange={(event) => onValueChange(event.target.value)}
        aria-required={optional ? undefined : true}
        className={inputClass}
        {...input}
      />
    </div>
  );
}
