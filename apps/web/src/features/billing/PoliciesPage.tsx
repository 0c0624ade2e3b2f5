import './i18n/index.ts';
import AddIcon from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Section } from '../../components/form/fields.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useAppBar } from '../../lib/appBarContext.tsx';
import { formatDate } from '../../lib/dates.ts';
import { useLocalize } from '../../lib/language.tsx';
import { useCan } from '../../lib/permissions.ts';
import { TryPanel } from './TryPanel.tsx';

export interface PolicyColumn<P> {
  label: string;
  cell(policy: P): ReactNode;
}

/**
 * A list page of billing policies (pricing, discounts): the header with "new", the table whose row
 * opens the policy, and the "try it" panel. Its texts are `billingUi.<texts>.*`.
 */
export function PoliciesPage<P extends { id: number }>(props: {
  texts: 'pricing' | 'discounts';
  /** The policies' address: `<path>/create`, `<path>/:id/edit`. */
  path: string;
  icon: ReactNode;
  testIds: { header: string; item: string };
  policies: P[] | undefined;
  loading: boolean;
  columns: PolicyColumn<P>[];
}) {
  const { texts, path, testIds, columns } = props;
  const { t } = useTranslation();
  const navigate = useNavigate();
  const localize = useLocalize();
  const can = useCan();
  useAppBar({ title: t(`billingUi.${texts}.title`) });
  const policies = props.policies ?? [];
  return (
    <>
      <PageHeader
        title={t(`billingUi.${texts}.title`)}
        subtitle={t(`billingUi.${texts}.subtitle`)}
        avatar={props.icon}
        testId={testIds.header}
        actions={
          can('billing:write') ? (
            <Button
              variant="contained"
              startIcon={<AddIcon />}
              onClick={() => navigate(localize(`${path}/create`))}
              data-testid={`${testIds.item}-new`}
            >
              {t(`billingUi.${texts}.new`)}
            </Button>
          ) : undefined
        }
      />
      <Stack spacing={3}>
        <Section title={t(`billingUi.${texts}.title`)}>
          <Table size="small" data-testid={`${testIds.item}-table`}>
            <TableHead>
              <TableRow>
                {columns.map((column) => (
                  <TableCell key={column.label}>{column.label}</TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {policies.length === 0 && !props.loading && (
                <TableRow>
                  <TableCell colSpan={columns.length}>{t(`billingUi.${texts}.noneYet`)}</TableCell>
                </TableRow>
              )}
              {policies.map((p) => (
                <TableRow
                  key={p.id}
                  hover
                  sx={{ cursor: 'pointer' }}
                  onClick={() => navigate(localize(`${path}/${p.id}/edit`))}
                  data-testid={`${testIds.item}-row`}
                >
                  {columns.map((column) => (
                    <TableCell key={column.label}>{column.cell(p)}</TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Section>
        <TryPanel />
      </Stack>
    </>
  );
}

/** A policy's validity: from its first day to its last, or for ever. */
export function Validity({ policy }: { policy: { fromdate: string; todate: string | null } }) {
  const { t } = useTranslation();
  return (
    <>
      {formatDate(policy.fromdate)} –{' '}
      {policy.todate ? formatDate(policy.todate) : t('billingUi.pricing.always')}
    </>
  );
}
