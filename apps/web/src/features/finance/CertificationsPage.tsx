import './i18n/index.ts';
import VerifiedOutlinedIcon from '@mui/icons-material/VerifiedOutlined';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import {
  type Certification,
  type CertificationListItem,
  certificationsCatalog,
  utilityDay,
} from '@protocol/contracts';
import { useMutation } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { DataTable } from '../../components/DataTable/DataTable.tsx';
import { wireDate } from '../../components/form/dates.ts';
import { useNotify } from '../../components/Notifier.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { api, isApiError } from '../../lib/api.ts';
import { useAppBar } from '../../lib/appBarContext.tsx';
import { formatDate } from '../../lib/dates.ts';
import { errorMessage } from '../../lib/errors.ts';
import { useLocalize } from '../../lib/language.tsx';
import { useCan } from '../../lib/permissions.ts';
import { DayField } from './DayField.tsx';

type Row = CertificationListItem & Record<string, unknown>;

/** The first and last day of the month before `day` (YYYY-MM-DD): what is usually certified. */
function previousMonth(day: string): [string, string] {
  const [year, month] = day.split('-').map(Number) as [number, number];
  const y = month === 1 ? year - 1 : year;
  const m = month === 1 ? 12 : month - 1;
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  const mm = String(m).padStart(2, '0');
  return [`${y}-${mm}-01`, `${y}-${mm}-${last}`];
}

/** The dialog that gathers a period into a new draft certification. */
function NewCertificationDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const navigate = useNavigate();
  const localize = useLocalize();
  const today = utilityDay(new Date());
  const [from, to] = previousMonth(today);
  const [values, setValues] = useState({
    periodFrom: formatDate(from),
    periodTo: formatDate(to),
    date: formatDate(today),
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const create = useMutation({
    mutationFn: () =>
      api.post<Certification>('/api/finance/certifications', {
        periodFrom: wireDate(values.periodFrom) ?? '',
        periodTo: wireDate(values.periodTo) ?? '',
        date: wireDate(values.date) ?? '',
        notes: null,
      }),
    onSuccess: (cert) => navigate(localize(`/finance/certifications/${cert.id}`)),
    onError: (failure) => {
      if (isApiError(failure) && failure.fieldErrors.length > 0)
        setErrors(Object.fromEntries(failure.fieldErrors.map((e) => [e.field, t(e.key, e.params)])));
      else notify(errorMessage(t, failure), 'error');
    },
  });
  const field = (key: keyof typeof values, label: string) => (
    <DayField
      label={label}
      value={values[key]}
      error={errors[key]}
      onChange={(value) => setValues((v) => ({ ...v, [key]: value }))}
      testId={`certification-${key}`}
    />
  );
  return (
    <Dialog open onClose={onClose} maxWidth="xs" fullWidth data-testid="certification-dialog">
      <DialogTitle>{t('finance.certifications.new')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {field('periodFrom', t('finance.certifications.periodFrom'))}
          {field('periodTo', t('finance.certifications.periodTo'))}
          {field('date', t('finance.certifications.date'))}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('finance.transformation.cancel')}</Button>
        <Button
          variant="contained"
          onClick={() => create.mutate()}
          loading={create.isPending}
          data-testid="certification-gather"
        >
          {t('finance.certifications.gather')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** /finance/certifications: the income certifications, and a new one from a period. */
export default function CertificationsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const localize = useLocalize();
  const can = useCan();
  const title = t('finance.certifications.title');
  useAppBar({ title: t('finance.menu') });
  const searchUrl = '/api/finance/certifications/search';
  const [creating, setCreating] = useState(false);
  const onRowClick = useCallback(
    (row: Row) => navigate(localize(`/finance/certifications/${row.id}`)),
    [navigate, localize],
  );
  return (
    <>
      <PageHeader
        title={title}
        subtitle={t('finance.certifications.subtitle')}
        avatar={<VerifiedOutlinedIcon />}
        testId="finance-certifications-header"
      />
      <DataTable<Row>
        catalog={certificationsCatalog}
        searchUrl={searchUrl}
        metaUrl="/api/users/meta"
        metaKey="finance.certifications.list"
        title={title}
        onCreate={can('finance:write') ? () => setCreating(true) : undefined}
        onRowClick={onRowClick}
        rowLabel={(row) => (row.number === null ? t('finance.pdf.draft') : `${row.number}/${row.year}`)}
        rowSecondary={(row) => `${formatDate(row.periodFrom)} – ${formatDate(row.periodTo)}`}
      />
      {creating && <NewCertificationDialog onClose={() => setCreating(false)} />}
    </>
  );
}
