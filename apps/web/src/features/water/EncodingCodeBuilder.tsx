import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  cutPart,
  type EncodingCodeDefinition,
  type EncodingLevel,
  encodingLevels,
  encodingLevelTypes,
  encodingMask,
  isCodeComplete,
  type LevelLookup,
  previewCode,
  wantsRecommendedLastPart,
} from '@protocol/contracts';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../components/Notifier.tsx';
import { consumersApi, useLevelLookup } from './consumersApi.ts';

const lookupOf: Record<number, LevelLookup> = {
  [encodingLevelTypes.sector]: 'sectors',
  [encodingLevelTypes.route]: 'routes',
  [encodingLevelTypes.department]: 'departments',
  [encodingLevelTypes.area]: 'areas',
  [encodingLevelTypes.address]: 'addresses',
  [encodingLevelTypes.building]: 'buildings',
};

interface Props {
  definition: EncodingCodeDefinition;
  parts: string[];
  onChange: (parts: string[]) => void;
  /** The consumer's own code (edit): it exists, and is allowed. */
  ownCode?: string;
  /** Errors of the parts (the form's, translated), by index. */
  errors: (string | undefined)[];
  /** Told whether the code may be saved: complete and not taken. */
  onVerdict: (allowed: boolean) => void;
  disabled?: boolean;
}

/**
 * The encoding-code part of the consumer form (spec §2, §4, §5): each level from its lookup (the
 * last the consumer's number, digits only), each cut to its length; the preview pads and joins
 * them; with every part but the last filled the server recommends the number; a complete code
 * that exists raises the code_not_allowed snackbar.
 */
export function EncodingCodeBuilder({
  definition,
  parts,
  onChange,
  ownCode,
  errors,
  onVerdict,
  disabled,
}: Props) {
  const { t } = useTranslation();
  const notify = useNotify();
  const levels = encodingLevels(definition);
  const preview = previewCode(definition, parts);
  const sectorIndex = levels.findIndex((l) => l.type === encodingLevelTypes.sector);
  const sectorCode = sectorIndex >= 0 ? (parts[sectorIndex] ?? '').trim() : null;

  const set = (index: number, value: string) => {
    const level = levels[index];
    if (!level) return;
    const next = levels.map((_, i) => parts[i] ?? '');
    next[index] = cutPart(value, level.length, index === levels.length - 1);
    // A route belongs to its sector: another sector clears it.
    if (level.type === encodingLevelTypes.sector) {
      levels.forEach((l, i) => {
        if (l.type === encodingLevelTypes.route) next[i] = '';
      });
    }
    onChange(next);
  };

  // The recommended number, when every part but the last is filled and the last is empty.
  const asked = useRef<string | null>(null);
  const wants = wantsRecommendedLastPart(definition, parts);
  useEffect(() => {
    if (!wants || asked.current === preview) return;
    asked.current = preview;
    consumersApi
      .lastPart(preview)
      .then(({ lastPart }) => {
        if (lastPart !== null && asked.current === preview) {
          onChange(levels.map((_, i) => (i === levels.length - 1 ? lastPart : (parts[i] ?? ''))));
        }
      })
      .catch(() => undefined);
  });

  // A complete code is checked on the server (spec §5): one that exists is not allowed.
  const complete = isCodeComplete(definition, parts);
  const checked = useRef<string | null>(null);
  const [taken, setTaken] = useState<string | null>(null);
  const verdict = (allowed: boolean) => {
    setTaken(allowed ? null : preview);
    onVerdict(allowed);
  };
  useEffect(() => {
    if (!complete) {
      checked.current = null;
      if (taken !== null) setTaken(null);
      onVerdict(false);
      return;
    }
    if (checked.current === preview) return;
    checked.current = preview;
    if (preview === ownCode) {
      verdict(true);
      return;
    }
    const timer = setTimeout(() => {
      consumersApi
        .existCode(preview)
        .then((exists) => {
          if (checked.current !== preview) return;
          if (exists) notify(t('validation.backend.consumers.code_not_allowed'), 'error');
          verdict(!exists);
        })
        .catch(() => {
          notify(t('validation.backend.consumers.code_not_allowed'), 'error');
          verdict(false);
        });
    }, 300);
    return () => clearTimeout(timer);
  });

  return (
    <Box data-testid="encoding-builder">
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: 'flex-start' }}>
        {levels.map((level, i) => (
          <LevelInput
            key={level.level}
            level={level}
            last={i === levels.length - 1}
            value={parts[i] ?? ''}
            onChange={(value) => set(i, value)}
            error={
              errors[i] ??
              (i === levels.length - 1 && taken === preview
                ? t('validation.backend.consumers.code_not_allowed')
                : undefined)
            }
            sectorCode={level.type === encodingLevelTypes.route ? sectorCode : null}
            disabled={disabled}
          />
        ))}
      </Stack>
      <Stack direction="row" spacing={2} sx={{ mt: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography color="text.secondary">{t('waterUi.consumer.preview')}</Typography>
        <Box
          component="code"
          data-testid="encoding-preview"
          sx={{
            fontFamily: 'monospace',
            fontSize: 18,
            whiteSpace: 'pre',
            px: 1.5,
            py: 0.5,
            borderRadius: 1,
            bgcolor: 'action.hover',
            border: 1,
            borderColor: taken === preview ? 'error.main' : complete ? 'success.main' : 'divider',
          }}
        >
          {preview}
        </Box>
        <Typography variant="body2" color="text.secondary">
          {t('waterUi.consumer.mask', { mask: encodingMask(definition) })}
        </Typography>
      </Stack>
    </Box>
  );
}

function LevelInput({
  level,
  last,
  value,
  onChange,
  error,
  sectorCode,
  disabled,
}: {
  level: EncodingLevel;
  last: boolean;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  sectorCode: string | null;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const lookup = level.type === null ? null : (lookupOf[level.type] ?? null);
  const items = useLevelLookup(lookup);
  // A route level offers only the routes of the chosen sector.
  const sectors = useLevelLookup(lookup === 'routes' ? 'sectors' : null).data;
  const label = last ? t('waterUi.consumer.number') : t(`waterUi.levelType_${level.type}`);
  const testId = `encoding-part-${level.level}`;
  const common = {
    label,
    required: true,
    disabled,
    error: Boolean(error),
    helperText: error ?? t('waterUi.consumer.partHint', { length: level.length }),
    sx: { minWidth: last ? 160 : 240 },
  };
  if (lookup) {
    const sectorId = sectors?.find((s) => s.code === sectorCode)?.id;
    const options = (items.data ?? []).filter(
      (item) => lookup !== 'routes' || sectorCode === null || item.sectorId === sectorId,
    );
    return (
      <TextField
        select
        {...common}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        slotProps={{
          select: { native: true },
          inputLabel: { shrink: true },
          htmlInput: { 'data-testid': testId },
        }}
      >
        <option value="">{t('common.empty')}</option>
        {options.map((item) => (
          <option key={item.id} value={item.code}>
            {`${item.code} · ${item.descr}`}
          </option>
        ))}
      </TextField>
    );
  }
  return (
    <TextField
      {...common}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      slotProps={{
        htmlInput: {
          'data-testid': testId,
          inputMode: last ? 'numeric' : 'text',
          maxLength: level.length * 2,
        },
      }}
    />
  );
}
