import './i18n/index.ts';
import PriceChangeOutlinedIcon from '@mui/icons-material/PriceChangeOutlined';
import Chip from '@mui/material/Chip';
import { formatDecimal, formatMoney } from '@protocol/contracts';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLang } from '../../lib/language.tsx';
import { billingApi, pricingKey } from './api.ts';
import { PoliciesPage, Validity } from './PoliciesPage.tsx';

/** /billing/pricing_policies: the tariffs per property usage and validity, and the "try it" panel. */
export default function PricingPoliciesPage() {
  const { t } = useTranslation();
  const language = useLang();
  const query = useQuery({
    queryKey: [...pricingKey],
    queryFn: ({ signal }) => billingApi.pricing(signal),
  });
  return (
    <PoliciesPage
      texts="pricing"
      path="/billing/pricing_policies"
      icon={<PriceChangeOutlinedIcon />}
      testIds={{ header: 'billing-pricing-header', item: 'billing-pricing' }}
      policies={query.data}
      loading={query.isLoading}
      columns={[
        {
          label: t('billingUi.pricing.description'),
          cell: (p) => (
            <>
              {p.description} {!p.active && <Chip size="small" variant="outlined" label="—" sx={{ ml: 1 }} />}
            </>
          ),
        },
        { label: t('billingUi.pricing.usage'), cell: (p) => p.propertyUsage },
        { label: t('billingUi.pricing.validity'), cell: (p) => <Validity policy={p} /> },
        {
          label: t('billingUi.pricing.bandsShort'),
          cell: (p) =>
            p.bands
              .map((b) =>
                b.upTo === null
                  ? `${formatMoney(b.price, language, 2)} €`
                  : `≤${formatDecimal(b.upTo, language)}: ${formatMoney(b.price, language, 2)} €`,
              )
              .join(' · '),
        },
        {
          label: t('billingUi.pricing.sewerage'),
          cell: (p) =>
            p.sewerageMode === 'percent'
              ? `${formatDecimal(p.sewerageValue, language)}%`
              : p.sewerageMode === 'perCubicMetre'
                ? `${formatMoney(p.sewerageValue, language, 2)} €/m³`
                : '—',
        },
      ]}
    />
  );
}
