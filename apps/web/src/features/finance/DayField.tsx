import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';

/** A day typed DD/MM/YYYY (spec §5), as the other forms of the product take dates. */
export function DayField({
  label,
  value,
  onChange,
  error,
  disabled,
  testId,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  disabled?: boolean;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <TextField
      fullWidth
      size="small"
      label={label}
      value={value}
      disabled={disabled}
      error={Boolean(error)}
      helperText={error ?? t('common.dateHint')}
      placeholder={t('common.dateHint')}
      onChange={(event) => onChange(event.target.value)}
      slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 10, 'data-testid': testId } }}
    />
  );
}
