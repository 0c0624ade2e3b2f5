import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { FieldError, OnlineForm } from '@protocol/contracts';
import { useTranslation } from 'react-i18next';

export type FormSettingsValue = Omit<OnlineForm, 'api' | 'audit' | 'version'>;

/** The form's settings (spec §3 Online form): title, language, methods, notes, redirects, flags, book. */
export function FormSettings(props: {
  value: FormSettingsValue;
  onChange: (value: FormSettingsValue) => void;
  errors: FieldError[];
  books: { id: number; descr: string }[];
  operators: { id: number; name: string }[];
  /** The company's other forms, for parentForm. */
  forms: { id: number; title: string }[];
}) {
  const { t } = useTranslation();
  const { value, onChange } = props;
  const set = (patch: Partial<FormSettingsValue>) => onChange({ ...value, ...patch });
  const errorOf = (field: string) => {
    const error = props.errors.find((e) => e.field === field);
    return error ? t(error.key, error.params) : undefined;
  };
  const text = (
    field: keyof FormSettingsValue,
    extra: { multiline?: boolean; required?: boolean; type?: string } = {},
  ) => (
    <TextField
      size="small"
      fullWidth
      label={t(`onlineForms.settings.${field}`)}
      value={(value[field] as string | null) ?? ''}
      onChange={(event) =>
        set({ [field]: event.target.value === '' ? null : event.target.value } as Partial<FormSettingsValue>)
      }
      error={Boolean(errorOf(field))}
      helperText={errorOf(field)}
      multiline={extra.multiline}
      minRows={extra.multiline ? 2 : undefined}
      required={extra.required}
      type={extra.type}
      slotProps={{ htmlInput: { 'data-testid': `settings-${field}` } }}
    />
  );
  const flag = (field: 'is_online' | 'is_payment' | 'auto_nr' | 'disabled' | 'readonly') => (
    <FormControlLabel
      control={
        <Checkbox
          checked={value[field]}
          onChange={(event) => set({ [field]: event.target.checked } as Partial<FormSettingsValue>)}
          slotProps={{ input: { 'data-testid': `settings-${field}` } as object }}
        />
      }
      label={t(`onlineForms.settings.${field}`)}
    />
  );
  const select = (
    field: 'language' | 'submitMethod' | 'saveMethod' | 'status',
    options: { value: number; label: string }[],
  ) => (
    <TextField
      select
      size="small"
      fullWidth
      label={t(`onlineForms.settings.${field}`)}
      value={value[field]}
      onChange={(event) => set({ [field]: Number(event.target.value) } as Partial<FormSettingsValue>)}
      slotProps={{ htmlInput: { 'data-testid': `settings-${field}` } }}
    >
      {options.map((o) => (
        <MenuItem key={o.value} value={o.value} data-testid={`settings-${field}-${o.value}`}>
          {o.label}
        </MenuItem>
      ))}
    </TextField>
  );
  const grid = { display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } };
  return (
    <Paper variant="outlined" sx={{ p: 2.5 }}>
      <Box sx={grid}>
        <Box sx={{ gridColumn: { md: 'span 2' } }}>{text('title', { required: true })}</Box>
        {text('form_id', { required: true })}
        {select(
          'status',
          [0, 1].map((s) => ({ value: s, label: t(`onlineForms.status.${s}`) })),
        )}
        {select(
          'language',
          [0, 1].map((s) => ({ value: s, label: t(`onlineForms.language.${s}`) })),
        )}
        {select(
          'submitMethod',
          [0, 1].map((s) => ({ value: s, label: t(`onlineForms.submitMethod.${s}`) })),
        )}
        <Box sx={{ gridColumn: { md: 'span 2' } }}>{text('description', { multiline: true })}</Box>
        {select(
          'saveMethod',
          [0, 1].map((s) => ({ value: s, label: t(`onlineForms.saveMethod.${s}`) })),
        )}
        {text('mailTo', { type: 'email' })}
        {text('successNote', { multiline: true })}
        {text('errorNote', { multiline: true })}
        {text('successUrl')}
        {text('errorUrl')}
        <TextField
          select
          size="small"
          label={t('onlineForms.settings.assign_to')}
          value={value.assign_to ?? ''}
          onChange={(event) =>
            set({ assign_to: event.target.value === '' ? null : Number(event.target.value) })
          }
        >
          <MenuItem value="">{t('onlineForms.builder.none')}</MenuItem>
          {props.operators.map((o) => (
            <MenuItem key={o.id} value={o.id}>
              {o.name}
            </MenuItem>
          ))}
        </TextField>
        {text('printurl')}
        <TextField
          select
          size="small"
          label={t('onlineForms.settings.parentForm')}
          value={value.parentForm ?? ''}
          onChange={(event) =>
            set({ parentForm: event.target.value === '' ? null : Number(event.target.value) })
          }
        >
          <MenuItem value="">{t('onlineForms.builder.none')}</MenuItem>
          {props.forms
            .filter((f) => f.id !== value.id)
            .map((f) => (
              <MenuItem key={f.id} value={f.id}>
                {f.title}
              </MenuItem>
            ))}
        </TextField>
      </Box>
      <Typography variant="subtitle2" sx={{ mt: 3, mb: 1 }}>
        {t('onlineForms.settings.publicLink')}
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 2 }}>
        {flag('is_online')}
        {flag('disabled')}
        {flag('readonly')}
        {flag('is_payment')}
        {flag('auto_nr')}
      </Box>
      <Box sx={{ ...grid, mt: 1 }}>
        {value.is_payment && text('fee', { required: true })}
        {value.auto_nr && (
          <TextField
            select
            size="small"
            required
            label={t('onlineForms.settings.book')}
            value={value.book ?? ''}
            error={Boolean(errorOf('book'))}
            helperText={errorOf('book')}
            onChange={(event) => set({ book: event.target.value === '' ? null : Number(event.target.value) })}
            slotProps={{ htmlInput: { 'data-testid': 'settings-book' } }}
          >
            {props.books.map((b) => (
              <MenuItem key={b.id} value={b.id} data-testid={`settings-book-${b.id}`}>
                {b.descr}
              </MenuItem>
            ))}
          </TextField>
        )}
      </Box>
    </Paper>
  );
}
