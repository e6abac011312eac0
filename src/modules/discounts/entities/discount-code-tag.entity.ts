import { Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { DiscountCode } from './discount-code.entity.js';
import { Tag } from './tag.entity.js';

/** Which tags a discount code carries (`tag_ids`). */
@Entity('discount_code_tags')
@Index('ix_discount_code_tags_tag', ['tag_id'])
export class DiscountCodeTag {
  @PrimaryColumn({ type: 'uuid' }) discount_code_id!: string;
  @PrimaryColumn({ type: 'uuid' }) tag_id!: string;
  @ManyToOne(() => DiscountCode, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'discount_code_id' })
  discount_code?: Relation<DiscountCode>;
  @ManyToOne(() => Tag, { onDelete: 'CASCADE' }) @JoinColumn({ name: 'tag_id' }) tag?: Relation<Tag>;
}
