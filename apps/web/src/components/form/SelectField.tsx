import TextField from '@mui/material/TextField';
import type { ReactNode } from 'react';
import { type Control, Controller, type FieldPath, type FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { fieldMessage } from '../../lib/errors.ts';

export interface SelectOption {
  value: string;
  label: string;
}

/**
 * A native select bound to react-hook-form. Values are strings in the form (ids included);
 * `parse` turns the chosen one into the form's value when it is not a string.
 */
export function SelectField<T extends FieldValues>({
  control,
  name,
  label,
  options,
  testId,
  empty,
  disabled,
  helperText,
  required,
  parse,
}: {
  control: Control<T>;
  name: FieldPath<T>;
  label: string;
  options: SelectOption[];
  testId: string;
  /** The label of an empty first option ('' in the form); none without it. */
  empty?: string;
  disabled?: boolean;
  helperText?: ReactNode;
  required?: boolean;
  parse?: (value: string) => unknown;
}) {
  const { t } = useTranslation();
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <TextField
          select
          fullWidth
          label={label}
          required={required}
          disabled={disabled}
          value={String(field.value ?? '')}
          onChange={(event) => field.onChange(parse ? parse(event.target.value) : event.target.value)}
          onBlur={field.onBlur}
          inputRef={field.ref}
          error={Boolean(fieldState.error)}
          helperText={fieldMessage(t, fieldState.error?.message) ?? helperText}
          slotProps={{
            select: { native: true },
            inputLabel: { shrink: true },
            htmlInput: { 'data-testid': testId },
          }}
        >
          {empty !== undefined && <option value="">{empty}</option>}
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </TextField>
      )}
    />
  );
}
