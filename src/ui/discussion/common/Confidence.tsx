// A confidence as a percentage, green above the spec's threshold (docs/product.md#discussions-limits).
import { CONFIDENCE_GREEN_ABOVE } from '../../../schemas/constants';

export function Confidence({ value }: { value: number | undefined | null }) {
  if (value === undefined || value === null) return null;
  const green = value > CONFIDENCE_GREEN_ABOVE;
  return (
    <span className={`confidence${green ? ' confidence--high' : ''}`} title="Confidence">
      {Math.round(value * 100)}%
    </span>
  );
}
