import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { type Control, Controller, type FieldPath, type FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { fieldMessage } from '../../lib/errors.ts';

/** A titled card of an edit page; an optional hint under the title and something on its right (a count). */
export function Section({
  title,
  hint,
  aside,
  testId,
  children,
}: {
  title: string;
  hint?: string;
  aside?: ReactNode;
  testId?: string;
  children: ReactNode;
}) {
  const below = { mb: hint ? 0.5 : 2.5 };
  const heading = (
    <Typography variant="h2" sx={{ fontSize: '1.05rem', ...(aside ? { flexGrow: 1 } : below) }}>
      {title}
    </Typography>
  );
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2.5, md: 3 } }} data-testid={testId}>
      {aside ? (
        <Box sx={{ display: 'flex', alignItems: 'baseline', gap: 2, ...below }}>
          {heading}
          {aside}
        </Box>
      ) : (
        heading
      )}
      {hint && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2.5 }}>
          {hint}
        </Typography>
      )}
      {children}
    </Paper>
  );
}

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

/** An on/off field bound to react-hook-form, labelled on its right. */
export function SwitchField<T extends FieldValues>({
  control,
  name,
  label,
  testId,
  disabled,
}: {
  control: Control<T>;
  name: FieldPath<T>;
  label: string;
  testId: string;
  disabled?: boolean;
}) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <FormControlLabel
          label={label}
          disabled={disabled}
          control={
            <Switch
              checked={field.value === true}
              onChange={(event) => field.onChange(event.target.checked)}
              onBlur={field.onBlur}
              slotProps={{ input: { 'data-testid': testId, role: 'switch', ref: field.ref } as object }}
            />
          }
        />
      )}
    />
  );
}

/** A text area bound to react-hook-form (subjects, comments). */
export function MultilineField<T extends FieldValues>({
  control,
  name,
  label,
  testId,
  required,
  disabled,
  rows = 2,
}: {
  control: Control<T>;
  name: FieldPath<T>;
  label: string;
  testId: string;
  required?: boolean;
  disabled?: boolean;
  rows?: number;
}) {
  const { t } = useTranslation();
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <TextField
          fullWidth
          multiline
          minRows={rows}
          label={label}
          required={required}
          disabled={disabled}
          value={field.value}
          onChange={field.onChange}
          onBlur={field.onBlur}
          inputRef={field.ref}
          error={Boolean(fieldState.error)}
          helperText={fieldMessage(t, fieldState.error?.message)}
          slotProps={{ htmlInput: { 'data-testid': testId } }}
        />
      )}
    />
  );
}
