import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  autocompleteSources,
  type Conditional,
  conditionalOperators,
  elementTypes,
  FIELD_NAME_PATTERN,
  type FormElement,
  isInput,
  parseRules,
  type Rules,
  ruleCallbacks,
  serializeRules,
} from '@protocol/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** The settings of one element: type, name, label, choices, validation rule and conditionals. */
export function ElementDialog(props: {
  element: FormElement | null;
  /** Other fields' names, for the conditionals. */
  fields: string[];
  onClose: () => void;
  onSave: (element: FormElement) => void;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<FormElement | null>(props.element);
  const [itemsText, setItemsText] = useState('');
  useEffect(() => {
    setDraft(props.element);
    setItemsText(props.element?.items.map((i) => `${i.value}=${i.label}`).join('\n') ?? '');
  }, [props.element]);
  if (!draft) return null;

  const rules: Rules = safeRules(draft.validation);
  const setRules = (patch: Partial<Rules>) => {
    const next = { ...rules, ...patch };
    for (const key of Object.keys(next) as (keyof Rules)[])
      if (next[key] === '' || next[key] === undefined) delete next[key];
    setDraft({ ...draft, validation: serializeRules(next) });
  };
  const setOption = (patch: Partial<FormElement['options']>) =>
    setDraft({ ...draft, options: { ...draft.options, ...patch } });
  const input = isInput(draft);
  const nameError =
    input && !FIELD_NAME_PATTERN.test(draft.options.field ?? '') ? t('dynamicForms.field_name') : undefined;
  const setConditional = (index: number, patch: Partial<Conditional>) =>
    setDraft({
      ...draft,
      conditionals: draft.conditionals.map((c, i) => (i === index ? { ...c, ...patch } : c)),
    });
  const choices = draft.type === 'select' || draft.type === 'radio' || draft.type === 'checkbox';

  const save = () => {
    const items = choices
      ? itemsText
          .split('\n')
          .map((line) => line.trim())
          .filter(Boolean)
          .map((line) => {
            const [value = '', ...label] = line.split('=');
            return { value: value.trim(), label: (label.join('=') || value).trim() };
          })
      : [];
    props.onSave({ ...draft, items });
  };

  return (
    <Dialog open onClose={props.onClose} fullWidth maxWidth="sm" aria-labelledby="element-dialog-title">
      <DialogTitle id="element-dialog-title">{t('onlineForms.builder.settings')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            select
            size="small"
            label={t('onlineForms.builder.type')}
            value={draft.type}
            onChange={(event) => setDraft({ ...draft, type: event.target.value as FormElement['type'] })}
            slotProps={{ htmlInput: { 'data-testid': 'element-type' } }}
          >
            {elementTypes.map((type) => (
              <MenuItem key={type} value={type}>
                {t(`onlineForms.elementType.${type}`)}
              </MenuItem>
            ))}
          </TextField>
          {input ? (
            <>
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                <TextField
                  size="small"
                  fullWidth
                  label={t('onlineForms.builder.label')}
                  value={draft.options.label ?? ''}
                  onChange={(event) => setOption({ label: event.target.value })}
                  slotProps={{ htmlInput: { 'data-testid': 'element-label' } }}
                />
                <TextField
                  size="small"
                  fullWidth
                  label={t('onlineForms.builder.field')}
                  value={draft.options.field ?? ''}
                  error={Boolean(nameError)}
                  helperText={nameError}
                  onChange={(event) => setOption({ field: event.target.value })}
                  slotProps={{ htmlInput: { 'data-testid': 'element-field' } }}
                />
              </Stack>
              <TextField
                size="small"
                label={t('onlineForms.builder.labelEn')}
                helperText={t('onlineForms.builder.labelEnHint')}
                value={draft.options.labelEn ?? ''}
                onChange={(event) => setOption({ labelEn: event.target.value || undefined })}
                slotProps={{ htmlInput: { 'data-testid': 'element-label-en' } }}
              />
              <TextField
                size="small"
                label={t('onlineForms.builder.help')}
                value={draft.options.help ?? ''}
                onChange={(event) => setOption({ help: event.target.value || undefined })}
              />
              {choices && (
                <TextField
                  size="small"
                  multiline
                  minRows={3}
                  label={t('onlineForms.builder.items')}
                  value={itemsText}
                  onChange={(event) => setItemsText(event.target.value)}
                  slotProps={{ htmlInput: { 'data-testid': 'element-items' } }}
                />
              )}
              {draft.type === 'autocomplete' && (
                <TextField
                  select
                  size="small"
                  label={t('onlineForms.builder.source')}
                  value={draft.options.source ?? 'streets'}
                  onChange={(event) => setOption({ source: event.target.value as 'streets' })}
                >
                  {autocompleteSources.map((source) => (
                    <MenuItem key={source} value={source}>
                      {t(`onlineForms.source.${source}`)}
                    </MenuItem>
                  ))}
                </TextField>
              )}
              {draft.type === 'file' && (
                <Stack direction="row" spacing={2}>
                  <TextField
                    size="small"
                    type="number"
                    label={t('onlineForms.builder.maxSizeMb')}
                    value={draft.options.maxSizeMb ?? ''}
                    onChange={(event) =>
                      setOption({ maxSizeMb: event.target.value ? Number(event.target.value) : undefined })
                    }
                  />
                  <TextField
                    size="small"
                    fullWidth
                    label={t('onlineForms.builder.accept')}
                    value={(draft.options.accept ?? []).join(', ')}
                    onChange={(event) =>
                      setOption({
                        accept: event.target.value
                          .split(/[\s,]+/)
                          .map((a) => a.replace(/^\./, '').toLowerCase())
                          .filter(Boolean),
                      })
                    }
                  />
                </Stack>
              )}
              <Typography variant="subtitle2">{t('onlineForms.builder.validation')}</Typography>
              <FormControlLabel
                control={
                  <Checkbox
                    checked={rules.required}
                    onChange={(event) => setRules({ required: event.target.checked })}
                    slotProps={{ input: { 'data-testid': 'element-required' } as object }}
                  />
                }
                label={t('onlineForms.builder.required')}
              />
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                <TextField
                  size="small"
                  label={t('onlineForms.builder.min')}
                  value={rules.min ?? ''}
                  onChange={(e) => setRules({ min: e.target.value || undefined })}
                />
                <TextField
                  size="small"
                  label={t('onlineForms.builder.max')}
                  value={rules.max ?? ''}
                  onChange={(e) => setRules({ max: e.target.value || undefined })}
                />
                <TextField
                  size="small"
                  label={t('onlineForms.builder.length')}
                  value={rules.length ?? ''}
                  onChange={(e) => setRules({ length: e.target.value ? Number(e.target.value) : undefined })}
                />
              </Stack>
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                <TextField
                  size="small"
                  fullWidth
                  label={t('onlineForms.builder.pattern')}
                  value={rules.pattern ?? ''}
                  onChange={(e) => setRules({ pattern: e.target.value || undefined })}
                />
                <TextField
                  select
                  size="small"
                  sx={{ minWidth: 180 }}
                  label={t('onlineForms.builder.callback')}
                  value={rules.callback ?? ''}
                  onChange={(e) => setRules({ callback: (e.target.value || undefined) as Rules['callback'] })}
                >
                  <MenuItem value="">{t('onlineForms.builder.none')}</MenuItem>
                  {ruleCallbacks.map((c) => (
                    <MenuItem key={c} value={c}>
                      {t(`onlineForms.callback.${c}`)}
                    </MenuItem>
                  ))}
                </TextField>
              </Stack>
              <Typography
                variant="caption"
                color="text.secondary"
                sx={{ fontFamily: 'monospace' }}
                data-testid="element-rule"
              >
                {draft.validation || '—'}
              </Typography>
            </>
          ) : (
            <TextField
              size="small"
              multiline
              minRows={draft.type === 'paragraph' ? 3 : 1}
              label={t('onlineForms.builder.text')}
              value={draft.options.text ?? ''}
              onChange={(event) => setOption({ text: event.target.value })}
            />
          )}
          <Typography variant="subtitle2">{t('onlineForms.builder.conditionals')}</Typography>
          <ConditionalsEditor
            conditionals={draft.conditionals}
            fields={props.fields.filter((f) => f !== draft.options.field)}
            onChange={(conditionals) => setDraft({ ...draft, conditionals })}
            setOne={setConditional}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button color="inherit" onClick={props.onClose}>
          {t('onlineForms.submissions.cancel')}
        </Button>
        <Button variant="contained" onClick={save} disabled={Boolean(nameError)} data-testid="element-save">
          {t('onlineForms.builder.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export function ConditionalsEditor(props: {
  conditionals: Conditional[];
  fields: string[];
  onChange: (conditionals: Conditional[]) => void;
  setOne?: (index: number, patch: Partial<Conditional>) => void;
}) {
  const { t } = useTranslation();
  const setOne =
    props.setOne ??
    ((index: number, patch: Partial<Conditional>) =>
      props.onChange(props.conditionals.map((c, i) => (i === index ? { ...c, ...patch } : c))));
  return (
    <Stack spacing={1.5}>
      {props.conditionals.map((condition, index) => (
        <Stack
          // biome-ignore lint/suspicious/noArrayIndexKey: conditions are positional
          key={index}
          direction={{ xs: 'column', sm: 'row' }}
          spacing={1}
          sx={{ alignItems: { sm: 'center' } }}
        >
          <TextField
            select
            size="small"
            sx={{ minWidth: 160 }}
            label={t('onlineForms.builder.conditionalField')}
            value={props.fields.includes(condition.field) ? condition.field : ''}
            onChange={(event) => setOne(index, { field: event.target.value })}
            slotProps={{ htmlInput: { 'data-testid': `conditional-field-${index}` } }}
          >
            {props.fields.map((field) => (
              <MenuItem key={field} value={field}>
                {field}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            size="small"
            sx={{ minWidth: 160 }}
            label={t('onlineForms.builder.operator')}
            value={condition.operator}
            onChange={(event) => setOne(index, { operator: event.target.value as Conditional['operator'] })}
          >
            {conditionalOperators.map((op) => (
              <MenuItem key={op} value={op}>
                {t(`onlineForms.operator.${op}`)}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            size="small"
            label={t('onlineForms.builder.value')}
            value={condition.value}
            onChange={(event) => setOne(index, { value: event.target.value })}
            slotProps={{ htmlInput: { 'data-testid': `conditional-value-${index}` } }}
          />
          <IconButton
            aria-label={t('onlineForms.builder.delete')}
            onClick={() => props.onChange(props.conditionals.filter((_, i) => i !== index))}
          >
            <DeleteOutlineIcon />
          </IconButton>
        </Stack>
      ))}
      <Box>
        <Button
          size="small"
          startIcon={<AddIcon />}
          disabled={props.fields.length === 0}
          onClick={() =>
            props.onChange([
              ...props.conditionals,
              { field: props.fields[0] ?? '', operator: 'equals', value: '' },
            ])
          }
          data-testid="conditional-add"
        >
          {t('onlineForms.builder.addConditional')}
        </Button>
      </Box>
    </Stack>
  );
}

function safeRules(rule: string): Rules {
  try {
    return parseRules(rule);
  } catch {
    return { required: false };
  }
}
