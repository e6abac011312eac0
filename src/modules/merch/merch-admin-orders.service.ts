import { Injectable } from '@nestjs/common';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { AppException } from '#app/common/errors/app.exception.js';
import type { MerchOrderDto, MerchOrderListQueryDto } from './dto/merch.dto.js';
import { toOrderDto } from './merch.mapper.js';
import { MerchRepository } from './merch.repository.js';

/** What a site's admins see of its merch orders (endpoint 10 and one order). */
@Injectable()
export class MerchAdminOrdersService {
  constructor(private readonly merch: MerchRepository) {}

  /** Endpoint 10: two statements whatever the page size (the page, then all its items). */
  async list(siteId: string, query: MerchOrderListQueryDto): Promise<MerchOrderDto[]> {
    const rows = await this.merch.listOrders(siteId, query.status_stage, query.limit, query.cursor);
    return rows.map(({ order, items }) => toOrderDto(order, items));
  }

  async get(caller: AuthUser, siteId: string, id: string): Promise<MerchOrderDto> {
    const order = await this.merch.findOrder(id);
    if (!order || (order.site_id !== siteId && caller.role !== 'superadmin'))
      throw AppException.notFound('Merch order');
    return toOrderDto(order, await this.merch.itemsOf(order.id));
  }
}
