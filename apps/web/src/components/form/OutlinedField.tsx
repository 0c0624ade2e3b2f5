import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';
import type { ChangeEvent, ReactNode, Ref } from 'react';
import { useId } from 'react';

export interface OutlinedFieldProps {
  name: string;
  label: string;
  value: string;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  onBlur?: () => void;
  inputRef?: Ref<HTMLInputElement>;
  /** Translated error text; shown under the field instead of the helper text. */
  error?: string;
  helperText?: ReactNode;
  /** data-testid of the <input> itself. */
  testId?: string;
  type?: string;
  autoComplete?: string;
  autoFocus?: boolean;
  required?: boolean;
  disabled?: boolean;
  endAdornment?: ReactNode;
}

/**
 * An outlined text field built from FormControl/OutlinedInput rather than TextField, which also
 * pulls in Select and every other input variant (this one is on the sign-in page).
 */
export function OutlinedField({
  name,
  label,
  value,
  onChange,
  onBlur,
  inputRef,
  error,
  helperText,
  testId,
  type = 'text',
  autoComplete,
  autoFocus,
  required,
  disabled,
  endAdornment,
}: OutlinedFieldProps) {
  const id = useId();
  const helperId = `${id}-helper`;
  const help = error ?? helperText;
  return (
    <FormControl fullWidth variant="outlined" error={Boolean(error)} required={required} disabled={disabled}>
      <InputLabel htmlFor={id}>{label}</InputLabel>
      <OutlinedInput
        id={id}
        name={name}
        type={type}
        label={required ? `${label} *` : label}
        value={value}
        onChange={onChange}
        onBlur={onBlur}
        inputRef={inputRef}
        autoComplete={autoComplete}
        autoFocus={autoFocus}
        endAdornment={endAdornment}
        aria-describedby={help ? helperId : undefined}
        slotProps={{ input: { 'data-testid': testId } as object }}
      />
      {help && <FormHelperText id={helperId}>{help}</FormHelperText>}
    </FormControl>
  );
}
